/**
 * Security keys and recovery codes (issue 17; docs/security/mfa.md): add a key (password again, a name,
 * then the browser asks for the key or the device's fingerprint/face/PIN), list and remove keys, and
 * new recovery codes (the old ones stop working at once). `AddSecurityKey` is also the enrolment page's
 * first choice where the browser has WebAuthn.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../lib/client';
import { FormField } from './SignInPage';
import { createCredential, webAuthnAvailable } from './webauthn';

const keysQuery = ['auth', 'webauthn', 'credentials'] as const;

export function RecoveryCodesList({ codes }: { codes: string[] }) {
  return (
    <>
      <p>
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone or key. They are
        shown only now.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((recovery) => (
          <li key={recovery}>
            <code>{recovery}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Password + name → the browser's key prompt → stored. `onAdded` gets the recovery codes (empty unless first factor). */
export function AddSecurityKey({ onAdded }: { onAdded: (recoveryCodes: string[]) => void }) {
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: async () => {
      const ceremony = await api('webAuthnRegisterOptions', { body: { password } });
      const response = await createCredential(ceremony);
      return api('webAuthnRegister', { body: { challengeId: ceremony.challengeId, name: name.trim(), response } });
    },
    onSuccess: (result) => {
      setPassword('');
      setName('');
      onAdded(result.recoveryCodes);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== '' && name.trim() !== '') add.mutate();
  };
  return (
    <form noValidate onSubmit={submit} aria-label="Add a security key">
      {add.error && (
        <div role="alert" className="banner banner-error">
          {add.error.message}
        </div>
      )}
      <FormField
        id="key-name"
        label="Name for this key (e.g. “Triage PC” or “Blue YubiKey”)"
        value={name}
        error={undefined}
        onChange={(value) => {
          setName(value);
          if (add.isError) add.reset();
        }}
      />
      <FormField
        id="key-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        error={undefined}
        onChange={(value) => {
          setPassword(value);
          if (add.isError) add.reset();
        }}
      />
      <button className="button button-primary" type="submit" disabled={add.isPending}>
        {add.isPending ? 'Waiting for the key…' : 'Add security key'}
      </button>
    </form>
  );
}

/** The page: /account/security. */
export function SecurityPage() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: keysQuery, queryFn: () => api('webAuthnCredentials') });
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const [codesPassword, setCodesPassword] = useState('');
  const remove = useMutation({
    mutationFn: (credentialId: string) => api('webAuthnRemoveCredential', { params: { credentialId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['auth'] }),
  });
  const regenerate = useMutation({
    mutationFn: () => api('regenerateRecoveryCodes', { body: { password: codesPassword } }),
    onSuccess: (result) => {
      setCodesPassword('');
      setShownCodes(result.recoveryCodes);
      void queryClient.invalidateQueries({ queryKey: ['auth'] });
    },
  });

  return (
    <main className="account-security">
      <header className="account-header">
        <Link className="button" to="/">
          Back to the board
        </Link>
        <h1>Sign-in security</h1>
      </header>
      <section aria-labelledby="keys-title" className="account-card">
        <h2 id="keys-title">Security keys and this device</h2>
        {keys.error && (
          <div role="alert" className="banner banner-error">
            {keys.error.message}
          </div>
        )}
        {remove.error && (
          <div role="alert" className="banner banner-error">
            {remove.error.message}
          </div>
        )}
        {keys.data && keys.data.credentials.length === 0 && <p className="muted">No security key yet.</p>}
        <ul className="security-keys">
          {keys.data?.credentials.map((key) => (
            <li key={key.id}>
              <span className="security-key-name">{key.name}</span>
              <span className="muted">
                added {new Date(key.createdAt).toLocaleDateString()}
                {key.lastUsedAt ? `, last used ${new Date(key.lastUsedAt).toLocaleString()}` : ', not used yet'}
              </span>
              <button
                className="button"
                type="button"
                disabled={remove.isPending}
                onClick={() => {
                  if (window.confirm(`Remove the security key “${key.name}”? It will no longer sign you in.`))
                    remove.mutate(key.id);
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        {webAuthnAvailable() ? (
          <AddSecurityKey
            onAdded={(codes) => {
              if (codes.length > 0) setShownCodes(codes);
              void queryClient.invalidateQueries({ queryKey: ['auth'] });
            }}
          />
        ) : (
          <p className="muted">This browser cannot use security keys.</p>
        )}
      </section>
      <section aria-labelledby="codes-title" className="account-card">
        <h2 id="codes-title">Recovery codes</h2>
        {shownCodes ? (
          <>
            <RecoveryCodesList codes={shownCodes} />
            <button className="button" type="button" onClick={() => setShownCodes(null)}>
              I have saved them
            </button>
          </>
        ) : (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (codesPassword !== '') regenerate.mutate();
            }}
          >
            <p className="muted">New codes replace the old ones at once: any you printed stop working.</p>
            {regenerate.error && (
              <div role="alert" className="banner banner-error">
                {regenerate.error.message}
              </div>
            )}
            <FormField
              id="codes-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              value={codesPassword}
              error={undefined}
              onChange={(value) => {
                setCodesPassword(value);
                if (regenerate.isError) regenerate.reset();
              }}
            />
            <button className="button" type="submit" disabled={regenerate.isPending}>
              Make new recovery codes
            </button>
          </form>
        )}
      </section>
    </main>
  );
}
