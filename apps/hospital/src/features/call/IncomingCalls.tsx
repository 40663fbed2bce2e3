import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { CALL_EVENTS, CALL_RING_TIMEOUT_MS, type Call, type CallRing } from '@inbound/contract';
import { api } from '../../lib/client';
import { useMe } from '../auth/queries';
import { useChannelMessages } from '../../lib/realtime/realtime';
import { audioBlocked, unlockAudio } from '../board/beep';
import { PriorityBadge } from '../board/PriorityBadge';
import { playRing } from './ringTone';
import './call.css';

// The call itself (WebRTC, its panel) loads when staff answer.
const ActiveCall = lazy(() => import('./ActiveCall').then((m) => ({ default: m.ActiveCall })));

const RING_EVERY_MS = 3_000;
/** How many answered or ended calls the console remembers (so a late list cannot ring them again). */
const ENDED_CALLS_KEPT = 200;

/**
 * Every console of the destination ED rings for a crew's call (issue 12): which case, which truck,
 * the priority; the first to answer takes it and the others stop ringing (`call.answered`). A console
 * opened or reconnected while a call rings asks which calls ring now (HospitalCalls).
 */
export function IncomingCalls() {
  const me = useMe();
  const hospitalIds = me.data?.hospitalMemberships.map((h) => h._id) ?? [];
  const [ringing, setRinging] = useState<Map<string, CallRing>>(new Map());
  const [active, setActive] = useState<CallRing | null>(null);

  // Calls answered or ended: the list read at subscription may answer after their `call.answered`.
  const over = useRef(new Set<string>());

  const onRing = (ring: CallRing) =>
    setRinging((current) => {
      if (over.current.has(ring.call.id)) return current;
      const age = Date.now() - Date.parse(ring.call.startedAt);
      if (ring.call.state !== 'ringing' || age > CALL_RING_TIMEOUT_MS) return current;
      return new Map(current).set(ring.call.id, ring);
    });
  const onGone = (call: Call) => {
    over.current.add(call.id);
    const oldest = over.current.values().next();
    if (over.current.size > ENDED_CALLS_KEPT && !oldest.done) over.current.delete(oldest.value);
    setRinging((current) => {
      if (!current.has(call.id)) return current;
      const next = new Map(current);
      next.delete(call.id);
      return next;
    });
  };

  // A ring nobody answers stops by itself after the caller's timeout.
  useEffect(() => {
    if (ringing.size === 0) return undefined;
    const sweep = setInterval(() => {
      for (const ring of ringing.values())
        if (Date.now() - Date.parse(ring.call.startedAt) > CALL_RING_TIMEOUT_MS) onGone(ring.call);
    }, 1_000);
    return () => clearInterval(sweep);
  }, [ringing]);

  // The ring sound while anything rings and this console is not on a call.
  const sounding = ringing.size > 0 && active === null;
  useEffect(() => {
    if (!sounding) return undefined;
    playRing();
    const timer = setInterval(playRing, RING_EVERY_MS);
    return () => clearInterval(timer);
  }, [sounding]);

  return (
    <>
      {hospitalIds.map((id) => (
        <HospitalCalls key={id} hospitalId={id} onRing={onRing} onGone={onGone} />
      ))}
      {ringing.size > 0 && active === null && (
        <div className="incoming-calls" role="alertdialog" aria-label="Incoming calls">
          {[...ringing.values()].map((ring) => (
            <IncomingCall
              key={ring.call.id}
              ring={ring}
              onAnswer={() => {
                unlockAudio();
                onGone(ring.call);
                setActive(ring);
              }}
            />
          ))}
        </div>
      )}
      {active && me.data && (
        <Suspense fallback={null}>
          <ActiveCall ring={active} selfUserId={me.data._id} onClose={() => setActive(null)} />
        </Suspense>
      )}
    </>
  );
}

function HospitalCalls({
  hospitalId,
  onRing,
  onGone,
}: {
  hospitalId: string;
  onRing: (ring: CallRing) => void;
  onGone: (call: Call) => void;
}) {
  useChannelMessages('hospital', hospitalId, {
    onMessage(message) {
      if (message.type === CALL_EVENTS.ring) onRing(message.data);
      else if (message.type === CALL_EVENTS.answered || message.type === CALL_EVENTS.ended) onGone(message.data.call);
    },
    // Opened (or reconnected) while a call rings: its `call.ring` went out before this subscription.
    // A failed read is left to the next subscription; the rings that follow still come on the channel.
    onSubscribed() {
      api('ringingCalls', { params: { id: hospitalId } })
        .then(({ rings }) => rings.forEach(onRing))
        .catch(() => undefined);
    },
  });
  return null;
}

function IncomingCall({ ring, onAnswer }: { ring: CallRing; onAnswer: () => void }) {
  const { call, card } = ring;
  const [declining, setDeclining] = useState(false);
  const decline = async () => {
    setDeclining(true);
    await api('endCall', { params: { callId: call.id }, body: { reason: 'reject' } }).catch(() => undefined);
  };
  return (
    <section
      className="incoming-call"
      aria-label={`Incoming call, case ${call.caseNumber}`}
      data-testid="incoming-call"
    >
      <div className="incoming-call__what">
        <p className="incoming-call__title">Incoming call · Case {call.caseNumber}</p>
        <p className="incoming-call__detail">
          {card ? `${card.truck.name} · ${card.agency.name}` : ''} {card?.complaint ? `· ${card.complaint.name}` : ''}
        </p>
        <PriorityBadge priority={card?.complaint?.priority ?? null} />
        <p className="incoming-call__detail">From {call.caller.name}</p>
        {audioBlocked() && <p className="incoming-call__hint">Click anywhere on the console to hear the ring.</p>}
      </div>
      <div className="incoming-call__actions">
        <button type="button" className="incoming-call__answer" onClick={onAnswer}>
          Answer
        </button>
        <button type="button" className="incoming-call__decline" onClick={() => void decline()} disabled={declining}>
          Decline
        </button>
      </div>
    </section>
  );
}
