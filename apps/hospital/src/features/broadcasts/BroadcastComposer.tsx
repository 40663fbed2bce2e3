import { useId, useState, type FormEvent } from 'react';
import { BROADCAST_MAX_LENGTH, SendBroadcastBody } from '@inbound/contract';
import { DispatchForm } from './DispatchForm';
import { SentBroadcasts } from './SentBroadcasts';
import { useBroadcastRecipients, useBroadcastUpdates, useSendBroadcast } from './queries';

type Mode = 'broadcast' | 'dispatch';

/**
 * The hospital's messages to EMS: an ordinary broadcast to chosen agencies, or a dispatched case (an
 * emsDispatch broadcast a crew loads from its Message Center); below, everything the hospital sent.
 */
export function BroadcastComposer({ hospitalId }: { hospitalId: string }) {
  const [mode, setMode] = useState<Mode>('broadcast');
  const titleId = useId();
  useBroadcastUpdates(hospitalId);

  return (
    <section className="panel broadcasts" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        Broadcast to EMS
      </h2>
      <div className="composer-modes" role="group" aria-label="What to send">
        <button
          type="button"
          className="button composer-mode"
          aria-pressed={mode === 'broadcast'}
          onClick={() => setMode('broadcast')}
        >
          Broadcast
        </button>
        <button
          type="button"
          className="button composer-mode"
          aria-pressed={mode === 'dispatch'}
          onClick={() => setMode('dispatch')}
        >
          Dispatch a case
        </button>
      </div>
      {mode === 'broadcast' ? <BroadcastForm hospitalId={hospitalId} /> : <DispatchForm hospitalId={hospitalId} />}
      <SentBroadcasts hospitalId={hospitalId} />
    </section>
  );
}

/**
 * Compose and send a broadcast to agencies delivering to the hospital. One Idempotency-Key is made per
 * composition and kept through retries, so a send whose answer was lost and is tried again reaches the
 * crews once; only a successful send starts a new composition with a new key.
 */
function BroadcastForm({ hospitalId }: { hospitalId: string }) {
  const recipients = useBroadcastRecipients(hospitalId);
  const send = useSendBroadcast(hospitalId);
  const [composeKey, setComposeKey] = useState(() => crypto.randomUUID());
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [content, setContent] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
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

  if (recipients.isPending) return <p role="status">Loading agencies…</p>;
  if (recipients.isError) {
    return (
      <div role="alert" className="banner banner-error">
        {recipients.error.message}{' '}
        <button className="button" type="button" onClick={() => void recipients.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return (
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
  );
}
