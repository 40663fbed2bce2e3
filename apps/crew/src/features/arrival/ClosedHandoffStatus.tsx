import { useEffect, useState } from 'react';
import { useSession } from '../../lib/session';
import { clock, formatTimer } from './ArrivalStatus';
import { isWatchOver, useHandoffWatchChannel } from './closedHandoff';
import './arrival.css';

/**
 * Start's line for the just-closed case (issue 15): the offload timer from the arrival until the ED
 * accepts the hand-over, then "Handoff accepted by … hh:mm" — for 2 h after the close (closedHandoff.ts).
 */
export function ClosedHandoffStatus() {
  const watch = useSession((state) => state.handoffWatch);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (watch === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [watch]);
  const over = watch !== null && isWatchOver(watch, now);
  useHandoffWatchChannel(over);
  useEffect(() => {
    if (over) useSession.setState({ handoffWatch: null });
  }, [over]);
  if (watch === null || over) return null;
  return (
    <section className="closed-handoff" aria-label="Hand-over of the closed case">
      <p className="closed-handoff__case">
        Case {watch.caseNumber} · {watch.hospitalName}
      </p>
      {watch.handoffAt && watch.handoffByName ? (
        <p className="arrival-line arrival-line--done" role="status" data-testid="closed-handoff-accepted">
          <span aria-hidden="true">✓ </span>Handoff accepted by {watch.handoffByName} {clock(watch.handoffAt)}
        </p>
      ) : watch.arrivalAt ? (
        <p className="arrival-line" role="status" data-testid="closed-offload-timer">
          <span>Arrived {clock(watch.arrivalAt)} · waiting for handoff</span>
          <strong className="arrival-line__timer">{formatTimer(now - Date.parse(watch.arrivalAt))}</strong>
        </p>
      ) : (
        <p className="arrival-line" role="status" data-testid="closed-offload-timer">
          <span>Closed {clock(watch.closedAt)} · waiting for handoff</span>
        </p>
      )}
    </section>
  );
}
