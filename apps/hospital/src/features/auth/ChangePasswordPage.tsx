/**
 * First sign-in with a one-time password from an administrator: the console asks for a password of the
 * person's own before anything else (the server refuses every other call until then). The rules are
 * the server's (length, not the username, not a common password); its message is shown as it is.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PASSWORD_MIN_LENGTH, messages, type ChangePasswordBody, type User } from '@inbound/contract';
import { api } from '../../lib/client';
import { authKeys } from './queries';
import { useSignOut } from './mutations';

type Fields = ChangePasswordBody;
type Errors = Partial<Record<keyof Fields, string>>;

function validate(fields: Fields): Errors {
  const errors: Errors = {};
  if (fields.currentPassword === '') errors.currentPassword = messages.fillCurrentPassword;
  if (fields.newPassword === '') errors.newPassword = messages.fillNewPassword;
  if (fields.verifyPassword === '') errors.verifyPassword = messages.fillNewPasswordAgain;
  return errors;
}

export function ChangePasswordPage({ user }: { user: User }) {
  const [fields, setFields] = useState<Fields>({ currentPassword: '', newPassword: '', verifyPassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const change = useMutation({
    mutationFn: (body: Fields) => api('changePassword', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.me() }),
  });

  function update(name: keyof Fields, value: string) {
    setFields((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
    if (change.isError) change.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(fields);
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate(fields);
  }

  const field = (name: keyof Fields, label: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="password"
        autoComplete={autoComplete}
        value={fields[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${name}-error` : undefined}
        onChange={(event) => update(name, event.target.value)}
      />
      {errors[name] && (
        <p id={`${name}-error`} className="field-error">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <main className="signin">
      <section className="signin-card" aria-labelledby="change-title">
        <p className="brand">Inbound</p>
        <h1 id="change-title">Choose your password</h1>
        <p className="muted">
          Welcome, {user.displayName}. You signed in with a one-time password from your administrator. Choose a password
          of your own (at least {PASSWORD_MIN_LENGTH} characters) to continue.
        </p>
        <form noValidate onSubmit={submit}>
          {change.error && (
            <div role="alert" className="banner banner-error">
              {change.error.message}
            </div>
          )}
          {field('currentPassword', 'One-time password', 'current-password')}
          {field('newPassword', 'New password', 'new-password')}
          {field('verifyPassword', 'New password again', 'new-password')}
          <button className="button button-primary" type="submit" disabled={change.isPending}>
            {change.isPending ? 'Saving...' : 'Save password and continue'}
          </button>
          <button className="button" type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </form>
      </section>
    </main>
  );
}

/** Shown instead of the console while the signed-in account still has a one-time password. */
export function needsPasswordChange(user: User | undefined): user is User {
  return user?.mustChangePassword === true;
}
