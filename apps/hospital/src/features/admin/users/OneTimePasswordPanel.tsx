/**
 * The one-time password of an invitation or a reset, shown once: the server keeps only its hash, and
 * this panel forgets it when dismissed. The admin hands it over in person or by phone.
 */
import { useState } from 'react';
import type { OneTimePasswordResponse } from '@inbound/contract';

interface Props {
  result: OneTimePasswordResponse;
  reason: 'invited' | 'reset';
  onDone: () => void;
}

export function OneTimePasswordPanel({ result, reason, onDone }: Props) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const { user, oneTimePassword } = result;

  function copy() {
    navigator.clipboard.writeText(oneTimePassword).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  }

  return (
    <section className="panel otp-panel" aria-labelledby="otp-title">
      <h2 id="otp-title">
        {reason === 'invited' ? 'Invited' : 'Password reset for'} {user.displayName} ({user.username})
      </h2>
      <p>One-time password:</p>
      <output className="otp-value" aria-label="One-time password" data-testid="one-time-password">
        {oneTimePassword}
      </output>
      <p className="muted">
        Shown only now — it is not stored and cannot be shown again. Give it to {user.displayName} in person or by
        phone. They sign in with username <strong>{user.username}</strong> and must choose their own password before
        anything else.
      </p>
      <div className="form-actions" style={{ marginTop: '0.75rem' }}>
        <button className="button" type="button" onClick={copy}>
          Copy
        </button>
        {copied === 'yes' && <span role="status">Copied.</span>}
        {copied === 'failed' && <span role="status">Copy failed — select the password and copy it.</span>}
        <button className="button button-primary" type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
