/**
 * Two-step sign-in set-up (issue 17; docs/security/mfa.md): shown instead of the console when the
 * organisation requires MFA of this user and no authenticator is set up yet (the server answers nothing
 * else until then). Password → the secret to add to an authenticator app → its first code → ten
 * recovery codes, shown once.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/client';
import { FormField } from './SignInPage';
import { useSignOut } from './mutations';

export function MfaEnrolPage() {
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const setup = useMutation({ mutationFn: () => api('totpSetup', { body: { password } }) });
  const confirm = useMutation({ mutationFn: () => api('totpConfirm', { body: { code: code.replace(/\s/g, '') } }) });

  const start = (event: FormEvent) => {
    event.preventDefault();
    if (password !== '') setup.mutate();
  };
  const finish = (event: FormEvent) => {
    event.preventDefault();
    if (code !== '') confirm.mutate();
  };
  const error = setup.error ?? confirm.error;

  return (
    <main className="signin">
      <section className="signin-card" aria-labelledby="mfa-title">
        <p className="brand">Inbound</p>
        <h1 id="mfa-title">Set up two-step sign-in</h1>
        {error && (
          <div role="alert" className="banner banner-error">
            {error.message}
          </div>
        )}
        {confirm.data ? (
          <>
            <p>
              Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are
              shown only now.
            </p>
            <ul className="recovery-codes" aria-label="Recovery codes">
              {confirm.data.recoveryCodes.map((recovery) => (
                <li key={recovery}>
                  <code>{recovery}</code>
                </li>
              ))}
            </ul>
            <button
              className="button button-primary"
              type="button"
              onClick={() => void queryClient.invalidateQueries()}
            >
              I have saved them — continue
            </button>
          </>
        ) : setup.data ? (
          <form noValidate onSubmit={finish}>
            <p>
              Add this key to your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), then
              enter the 6-digit code it shows.
            </p>
            <p>
              Key: <code className="totp-secret">{setup.data.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
            </p>
            <p>
              <a href={setup.data.otpauthUri}>Open in an authenticator app on this device</a>
            </p>
            <FormField
              id="code"
              label="6-digit code"
              autoComplete="one-time-code"
              inputMode="numeric"
              value={code}
              error={undefined}
              onChange={(value) => {
                setCode(value);
                if (confirm.isError) confirm.reset();
              }}
            />
            <button className="button button-primary" type="submit" disabled={confirm.isPending}>
              Confirm
            </button>
          </form>
        ) : (
          <form noValidate onSubmit={start}>
            <p className="muted">
              Your organisation requires a code from an authenticator app at each sign-in to the console. Enter your
              password to begin.
            </p>
            <FormField
              id="password"
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              error={undefined}
              onChange={(value) => {
                setPassword(value);
                if (setup.isError) setup.reset();
              }}
            />
            <button className="button button-primary" type="submit" disabled={setup.isPending}>
              Continue
            </button>
          </form>
        )}
        <button className="button" type="button" onClick={() => signOut.mutate()}>
          Sign out
        </button>
      </section>
    </main>
  );
}
