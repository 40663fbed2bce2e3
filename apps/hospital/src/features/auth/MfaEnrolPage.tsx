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
import { AddSecurityKey, RecoveryCodesList } from './SecurityKeys';
import { webAuthnAvailable } from './webauthn';

export function MfaEnrolPage() {
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  /** Recovery codes answered by a first security key (null: no key added here). */
  const [keyCodes, setKeyCodes] = useState<string[] | null>(null);
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
        {keyCodes || confirm.data ? (
          <>
            <RecoveryCodesList codes={keyCodes ?? confirm.data?.recoveryCodes ?? []} />
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
          <>
            {webAuthnAvailable() && (
              <section aria-labelledby="mfa-key-title" className="mfa-choice">
                <h2 id="mfa-key-title">Use a security key or this device</h2>
                <p className="muted">
                  Fastest at the desk: a USB key, or this computer&apos;s fingerprint, face or PIN.
                </p>
                <AddSecurityKey onAdded={(codes) => setKeyCodes(codes)} />
              </section>
            )}
            <form noValidate onSubmit={start}>
              {webAuthnAvailable() && <h2>Or use an authenticator app</h2>}
              <p className="muted">
                Your organisation requires a second step at each sign-in to the console: a code from an authenticator
                app. Enter your password to begin.
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
          </>
        )}
        <button className="button" type="button" onClick={() => signOut.mutate()}>
          Sign out
        </button>
      </section>
    </main>
  );
}
