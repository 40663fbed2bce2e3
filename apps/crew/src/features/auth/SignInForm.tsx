import { useState, type FormEvent, type ReactNode } from 'react';
import { messages } from '@inbound/contract';
import { errorMessage } from '../../lib/errors';
import { Banner } from '../../ui/Banner';
import { TextField } from '../../ui/TextField';
import { hasErrors, validateLogin, type FieldErrors, type LoginFields } from './validators';

interface SignInFormProps {
  /** The form's accessible name. */
  label: string;
  initialUsername?: string;
  signIn: (username: string, password: string) => Promise<void>;
  /** Further actions under the Login button (e.g. Logout in the session-expired modal). */
  children?: ReactNode;
}

/**
 * Username-or-email and password with the spec's field messages (§5, cleared on typing), the general
 * error banner (§8) and 'Logging in...' while busy. Used by the login page and the session-expired modal.
 */
export function SignInForm({ label, initialUsername = '', signIn, children }: SignInFormProps) {
  const [fields, setFields] = useState<LoginFields>({ username: initialUsername, password: '' });
  const [errors, setErrors] = useState<FieldErrors<LoginFields>>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const update = (name: keyof LoginFields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateLogin(fields);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setGeneralError(null);
    try {
      await signIn(fields.username, fields.password);
    } catch (error) {
      setGeneralError(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={label}>
      {generalError && <Banner kind="error" message={generalError} />}
      <TextField
        label="Username or email"
        value={fields.username}
        onChange={update('username')}
        error={errors.username}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
      />
      <TextField
        label="Password"
        type="password"
        value={fields.password}
        onChange={update('password')}
        error={errors.password}
        autoComplete="current-password"
      />
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? messages.loggingIn : 'Login'}
      </button>
      {children}
    </form>
  );
}
