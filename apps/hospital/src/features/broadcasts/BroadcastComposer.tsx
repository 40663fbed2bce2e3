import { useId, useState, type FormEvent } from 'react';
import { BROADCAST_MAX_LENGTH, SendBroadcastBody, type BroadcastMessage } from '@inbound/contract';
import { formatClock } from '../board/format';
import { useBroadcastRecipients, useSendBroadcast, useSentBroadcasts } from './queries';

/**
 * Compose and send a broadcast to agencies delivering to the hospital. One Idempotency-Key is made per
 * composition and kept through retries, so a send whose answer was lost and is tried again reaches the
 * crews once; only a successful send starts a new composition with a new key.
 */
export function BroadcastComposer({ hospitalId }: { hospitalId: string }) {
  const recipients = useBroadcastRecipients(hospitalId);
  const send = useSendBroadcast(hospitalId);
  const sent = useSentBroadcasts(hospitalId);
  const [composeKey, setComposeKey] = useState(() => crypto.randomUUID());
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [content, setContent] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const titleId = useId();
  const contentId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = SendBroadcastBody.safeParse({ hospitalId, emsAgencyIds: [...chosen], content, urgent });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'content is required');
      return;
    }
    setFieldError(null);
    send.mutate(
      { body: parsed.data, idempotencyKey: composeKey },
      {
        onSuccess: () => {
          setComposeKey(crypto.randomUUID());
          setContent('');
          setUrgent(false);
        },
      },
    );
  }

  function toggle(agencyId: string, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(agencyId);
    else next.delete(agencyId);
    setChosen(next);
    setFieldError(null);
  }

  return (
    <section className="panel broadcasts" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        Broadcast to EMS
      </h2>
      {recipients.isPending && <p role="status">Loading agencies…</p>}
      {recipients.isError && (
        <div role="alert" className="banner banner-error">
          {recipients.error.message}{' '}
          <button className="button" type="button" onClick={() => void recipients.refetch()}>
            Try again
          </button>
        </div>
      )}
      {recipients.data && (
        <form className="broadcast-form" onSubmit={submit} noValidate>
          <fieldset className="broadcast-agencies">
            <legend>Agencies</legend>
            {recipients.data.agencies.length === 0 && <p className="muted">No agency delivers to this hospital.</p>}
            {recipients.data.agencies.map((agency) => (
              <label key={agency._id} className="check">
                <input
                  type="checkbox"
                  checked={chosen.has(agency._id)}
                  onChange={(e) => toggle(agency._id, e.target.checked)}
                />
                {agency.name}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={contentId}>Message</label>
            <textarea
              id={contentId}
              value={content}
              rows={3}
              maxLength={BROADCAST_MAX_LENGTH}
              onChange={(e) => {
                setContent(e.target.value);
                setFieldError(null);
              }}
              aria-invalid={fieldError !== null}
            />
          </div>
          <label className="check">
            <input type="checkbox" checked={urgent} onChange={(e) => setUrgent(e.target.checked)} />
            Urgent
          </label>
          <button className="button button-primary" type="submit" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send broadcast'}
          </button>
          {fieldError && <p className="field-error">{fieldError}</p>}
          {send.isError && (
            <div role="alert" className="banner banner-error">
              {send.error.message}
            </div>
          )}
        </form>
      )}
      <SentList sent={sent} names={new Map(recipients.data?.agencies.map((a) => [a._id, a.name]))} />
    </section>
  );
}

function SentList({ sent, names }: { sent: readonly BroadcastMessage[]; names: ReadonlyMap<string, string> }) {
  if (sent.length === 0) return <p className="muted">Nothing sent from this console yet.</p>;
  return (
    <ul className="broadcast-sent" aria-label="Sent broadcasts">
      {sent.map((b) => (
        <li key={b._id} className={b.urgent ? 'broadcast-urgent' : undefined}>
          <span className="muted">{formatClock(b.timestamp)}</span> {b.urgent && <strong>Urgent </strong>}
          {b.content} <span className="muted">→ {b.emsAgencies.map((id) => names.get(id) ?? id).join(', ')}</span>
        </li>
      ))}
    </ul>
  );
}
