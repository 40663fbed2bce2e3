/**
 * The console's idle lock (issue 17; HIPAA automatic logoff): after CONSOLE_IDLE_LOCK_MS without input an
 * opaque lock screen covers the console. The console stays mounted behind it — the board keeps
 * refreshing and its alarms keep sounding — but nothing of it is visible or reachable (`inert`). The
 * password or a current authenticator code unlocks it (POST /v4/auth/reauth, throttled like sign-in).
 * The lock survives a reload (localStorage), so reloading the page does not open it.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { CONSOLE_IDLE_LOCK_MS } from '@inbound/contract';
import { api } from '../../lib/client';
import { useLockAlerts } from './lockAlerts';
import { FormField } from './SignInPage';
import { useSignOut } from './mutations';

const LOCKED_KEY = 'inbound.console.locked';
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

export function IdleLock({ children, idleMs = CONSOLE_IDLE_LOCK_MS }: { children: ReactNode; idleMs?: number }) {
  const [locked, setLocked] = useState(() => localStorage.getItem(LOCKED_KEY) === '1');
  const lastInput = useRef(0);

  useEffect(() => {
    if (locked) return;
    lastInput.current = Date.now();
    const onInput = () => {
      lastInput.current = Date.now();
    };
    for (const name of INPUT_EVENTS) window.addEventListener(name, onInput, { passive: true, capture: true });
    const timer = window.setInterval(
      () => {
        if (Date.now() - lastInput.current < idleMs) return;
        localStorage.setItem(LOCKED_KEY, '1');
        setLocked(true);
      },
      Math.min(5_000, idleMs / 4),
    );
    return () => {
      for (const name of INPUT_EVENTS) window.removeEventListener(name, onInput, { capture: true });
      window.clearInterval(timer);
    };
  }, [locked, idleMs]);

  const unlock = () => {
    localStorage.removeItem(LOCKED_KEY);
    lastInput.current = Date.now();
    setLocked(false);
  };

  return (
    <>
      <div inert={locked} aria-hidden={locked || undefined} className={locked ? 'idle-locked' : undefined}>
        {children}
      </div>
      {locked && <LockScreen onUnlocked={unlock} />}
    </>
  );
}

function LockScreen({ onUnlocked }: { onUnlocked: () => void }) {
  const [secret, setSecret] = useState('');
  const signOut = useSignOut();
  const alerts = useLockAlerts();
  const reauth = useMutation({
    mutationFn: () => {
      const typed = secret.replace(/\s/g, '');
      return api('reauth', { body: /^\d{6}$/.test(typed) ? { otp: typed } : { password: secret } });
    },
    onSuccess: onUnlocked,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (secret !== '') reauth.mutate();
  };
  return (
    <div className="lock-screen" role="dialog" aria-modal="true" aria-labelledby="lock-title">
      <section className="signin-card">
        <p className="brand">Inbound</p>
        <h1 id="lock-title">Console locked</h1>
        <p className="muted">
          Locked after 15 minutes without use. The board keeps running and its alarms still sound.
        </p>
        {alerts.length > 0 && (
          <div className="lock-alerts" role="alert" aria-live="assertive" aria-label="Alerts">
            {alerts.map((a) => (
              <div key={a.key} className="lock-alert" data-testid="lock-alert">
                <strong className="lock-alert-title">{a.title}</strong>
                <span>{a.detail}</span>
              </div>
            ))}
            <p className="lock-alert-hint">Unlock to answer or open the case.</p>
          </div>
        )}
        <form noValidate onSubmit={submit}>
          {reauth.error && (
            <div role="alert" className="banner banner-error">
              {reauth.error.message}
            </div>
          )}
          <FormField
            id="unlock"
            label="Password or authenticator code"
            type="password"
            autoComplete="current-password"
            value={secret}
            error={undefined}
            onChange={(value) => {
              setSecret(value);
              if (reauth.isError) reauth.reset();
            }}
          />
          <button className="button button-primary" type="submit" disabled={reauth.isPending}>
            Unlock
          </button>
        </form>
        <button
          className="button"
          type="button"
          onClick={() => {
            localStorage.removeItem(LOCKED_KEY);
            signOut.mutate();
          }}
        >
          Sign out
        </button>
      </section>
    </div>
  );
}
