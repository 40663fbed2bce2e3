import { useHandoffWatch } from './handoffWatch';
import './arrival.css';

const clock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/**
 * Start's line for the closed case's hand-over (decision 0038): "Waiting for handoff at …" until the ED
 * accepts transfer of care, then "Handoff accepted by … hh:mm", for 2 h after the close. It names the
 * hospital only: the device no longer holds the case.
 */
export function ClosedHandoffStatus() {
  const watch = useHandoffWatch();
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
