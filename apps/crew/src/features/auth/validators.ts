import { messages } from '@inbound/contract';

export interface LoginFields {
  username: string;
  password: string;
}

export type FieldErrors<F> = Partial<Record<keyof F, string>>;

/** Spec §5: both required. A username of spaces counts as empty. */
export function validateLogin({ username, password }: LoginFields): FieldErrors<LoginFields> {
  const errors: FieldErrors<LoginFields> = {};
  if (!username.trim()) errors.username = messages.fillUsername;
  if (!password) errors.password = messages.fillPassword;
  return errors;
}

export function hasErrors<F>(errors: FieldErrors<F>): boolean {
  return Object.values(errors).some(Boolean);
}
