/**
 * Inline validation for the admin forms: the contract's zod schema checks the draft before it is sent,
 * and each problem is shown under its own field (keyed by its path, e.g. "hospitalIds.1").
 */
import type { z } from 'zod';

export type FieldErrors = Readonly<Record<string, string>>;

/** The first problem of each field, by path ("edPhoneNumbers.0.phoneNumber"); "" for the form as a whole. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Props that tie an input to its message for assistive technology. */
export function invalidProps(errors: FieldErrors, key: string, id: string) {
  return errors[key]
    ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` }
    : { 'aria-invalid': undefined, 'aria-describedby': undefined };
}

export function FieldError({ errors, name, id }: { errors: FieldErrors; name: string; id: string }) {
  const message = errors[name];
  if (!message) return null;
  return (
    <p className="field-error" id={`${id}-error`}>
      {message}
    </p>
  );
}
