import { useState, type FormEvent } from 'react';
import { useSignIn } from './mutations';
import { validateSignIn, type SignInErrors, type SignInFields } from './validation';

export function SignInPage() {
  const [fields, setFields] = useState<SignInFields>({ username: '', password: '' });
  const [errors, setErrors] = useState<SignInErrors>({});
  const signIn = useSignIn();

  function update(name: keyof SignInFields, value: string) {
    setFields((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
    if (signIn.isError) signIn.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateSignIn(fields);
    setErrors(found);
    if (Object.keys(found).length === 0) signIn.mutate(fields);
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
}

function FormField({ id, label, value, error, onChange, type = 'text', autoComplete }: FormFieldProps) {
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
