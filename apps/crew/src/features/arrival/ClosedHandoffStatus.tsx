import { useEffect, useState } from 'react';
import { useSession, type HandoffWatch } from '../../lib/session';

const clock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/**
 * Start's line for the closed case's hand-over (decision 0038): "Waiting for handoff at …" until the ED
 * accepts transfer of care, then "Handoff accepted by … hh:mm", for 2 h after the close. It names the
 * hospital only: the device no longer holds the case. Drawn from the stored session with Start's first
 * paint, at the top of the screen (issue 16: a crew waiting at the ED reads it without scrolling, and
 * nothing moves under a finger when it appears); asking the server is `useHandoffWatchPolling`'s, which
 * comes with Start's live chunk.
 */
export function ClosedHandoffStatus() {
  const watch = useUnexpiredHandoffWatch();
  if (!watch) return null;
  return (
    <section className="closed-handoff" aria-label="Hand-over of the closed case">
      {watch.handoff ? (
        <p className="arrival-line arrival-line--done" role="status" data-testid="closed-handoff-accepted">
          <span aria-hidden="true">✓ </span>Handoff accepted by {watch.handoff.byName} {clock(watch.handoff.at)}
          <span className="closed-handoff__hospital"> · {watch.hospitalName}</span>
        </p>
      ) : (
        <p className="arrival-line" role="status" data-testid="closed-handoff-waiting">
          Waiting for handoff at {watch.hospitalName}
        </p>
      )}
    </section>
  );
}

/** The session's watch until its expiry, when it is dropped (an expired one is never drawn). */
function useUnexpiredHandoffWatch(): HandoffWatch | null {
  const watch = useSession((state) => state.handoffWatch);
  const token = watch?.token ?? null;
  const expiresAt = watch?.expiresAt ?? null;
  // One already expired when Start opens is not drawn even for the frame before the effect drops it.
  const [openedAt] = useState(() => Date.now());
  useEffect(() => {
    if (token === null || expiresAt === null) return undefined;
    const drop = () => {
      if (useSession.getState().handoffWatch?.token === token) useSession.setState({ handoffWatch: null });
    };
    const left = Date.parse(expiresAt) - Date.now();
    if (left <= 0) {
      drop();
      return undefined;
    }
    const timer = setTimeout(drop, left);
    return () => clearTimeout(timer);
  }, [token, expiresAt]);
  if (watch === null || Date.parse(watch.expiresAt) <= openedAt) return null;
  return watch;
}
