import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api';
import { useSignIn } from './mutations';
import { validateSignIn, type SignInErrors, type SignInFields } from './validation';
import { webAuthnAvailable } from './webauthn';

export function SignInPage() {
  const [fields, setFields] = useState<SignInFields>({ username: '', password: '' });
  const [errors, setErrors] = useState<SignInErrors>({});
  const signIn = useSignIn();
  const [code, setCode] = useState('');
  const failure = signIn.error instanceof ApiError ? signIn.error.code : undefined;
  // Asked once the password was right and the account uses two-step sign-in (docs/security/mfa.md).
  const [askCode, setAskCode] = useState(false);
  if (!askCode && (failure === 'mfa_required' || failure === 'mfa_invalid')) setAskCode(true);

  function update(name: keyof SignInFields, value: string) {
    setFields((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
    if (signIn.isError) signIn.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateSignIn(fields);
    setErrors(found);
    if (Object.keys(found).length === 0) signIn.mutate(askCode ? { ...fields, code } : fields);
  }

  /** The preferred second factor where the device has it: a security key or the device's own. */
  function signInWithKey() {
    const found = validateSignIn(fields);
    setErrors(found);
    if (Object.keys(found).length === 0) signIn.mutate({ ...fields, securityKey: true });
  }

  return (
    <main className="signin">
      <section className="signin-card" aria-labelledby="signin-title">
        <p className="brand">Inbound</p>
        <h1 id="signin-title">Hospital console</h1>
        <p className="muted">Sign in to see the ambulances on their way to your emergency department.</p>
        <form noValidate onSubmit={submit}>
          {signIn.error && (
            <div role="alert" className="banner banner-error">
              {signIn.error.message}
            </div>
          )}
          <FormField
            id="username"
            label="Username or e-mail"
            autoComplete="username"
            value={fields.username}
            error={errors.username}
            onChange={(value) => update('username', value)}
          />
          <FormField
            id="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            value={fields.password}
            error={errors.password}
            onChange={(value) => update('password', value)}
          />
          {askCode && webAuthnAvailable() && (
            <div className="second-factor">
              <button
                className="button button-primary"
                type="button"
                disabled={signIn.isPending}
                onClick={signInWithKey}
              >
                Use security key or this device
              </button>
              <p className="muted">Or type the code from your authenticator app:</p>
            </div>
          )}
          {askCode && (
            <FormField
              id="code"
              label="Code from your authenticator app (or a recovery code)"
              autoComplete="one-time-code"
              inputMode="numeric"
              autoFocus
              value={code}
              error={undefined}
              onChange={(value) => {
                setCode(value);
                if (signIn.isError) signIn.reset();
              }}
            />
          )}
          <button className="button button-primary" type="submit" disabled={signIn.isPending}>
            {signIn.isPending ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
      </section>
    </main>
  );
}

interface FormFieldProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  type?: string;
  autoComplete?: string;
  inputMode?: 'numeric';
  autoFocus?: boolean;
}

export function FormField({
  id,
  label,
  value,
  error,
  onChange,
  type = 'text',
  autoComplete,
  inputMode,
  autoFocus,
}: FormFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
