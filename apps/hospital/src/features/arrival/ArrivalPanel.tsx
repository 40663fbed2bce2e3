import { useState } from 'react';
import { DIVERSION_REASON_MAX_LENGTH, type BoardCaseDetail } from '@inbound/contract';
import { formatClock } from '../board/format';
import { useSecondClock } from '../board/clock';
import { ARRIVAL_SOURCE_LABEL, formatTimer } from './lanes';
import { useArrivalAction } from './queries';
import './arrival.css';

/**
 * The case detail's arrival and hand-over (issue 15): "Arrived" when the geofence and the crew have
 * not said so, "Accept handoff" (one tap, who and when), and "Divert…" with a reason before arrival.
 */
export function ArrivalPanel({ hospitalId, c }: { hospitalId: string; c: BoardCaseDetail }) {
  const action = useArrivalAction(hospitalId, c.id);
  const now = useSecondClock();
  const [diverting, setDiverting] = useState(false);
  const [reason, setReason] = useState('');
  const arrival = c.arrival ?? null;
  const handoff = c.handoff ?? null;
  const diversion = c.diversion ?? null;
  return (
    <section className="panel arrival-panel" aria-labelledby="arrival-title">
      <h2 id="arrival-title">Arrival and handoff</h2>
      {diversion && (
        <p className="diversion-note" role="status">
          Diverted by {diversion.byName} at {formatClock(diversion.at)}: {diversion.reason}. Waiting for the crew to
          choose another hospital.
        </p>
      )}
      {arrival ? (
        <p>
          Arrived {formatClock(arrival.at)} {ARRIVAL_SOURCE_LABEL[arrival.source]}
          {arrival.byName ? ` (${arrival.byName})` : ''}.
          {handoff ? (
            <>
              {' '}
              <strong>
                Handoff accepted by {handoff.byName} at {formatClock(handoff.at)}
              </strong>{' '}
              — offload time {formatTimer(Date.parse(handoff.at) - Date.parse(arrival.at))}.
            </>
          ) : (
            <>
              {' '}
              Offload time{' '}
              <strong data-testid="detail-offload-timer">{formatTimer(now - Date.parse(arrival.at))}</strong>
            </>
          )}
        </p>
      ) : (
        <p className="muted">Not arrived yet. The board marks the arrival when the truck stays at the door.</p>
      )}
      <div className="arrived-actions">
        {!arrival && (
          <button
            type="button"
            className="button"
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: 'arrived' })}
          >
            Arrived
          </button>
        )}
        {!handoff && (
          <button
            type="button"
            className="button button-primary"
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: 'handoff' })}
          >
            Accept handoff
          </button>
        )}
        {!arrival && !diversion && !diverting && (
          <button type="button" className="button button-danger" onClick={() => setDiverting(true)}>
            Divert…
          </button>
        )}
      </div>
      {diverting && !arrival && !diversion && (
        <form
          className="divert-form"
          onSubmit={(e) => {
            e.preventDefault();
            action.mutate({ kind: 'divert', reason }, { onSuccess: () => setDiverting(false) });
          }}
        >
          <label htmlFor="divert-reason">Reason for the crew</label>
          <input
            id="divert-reason"
            className="input"
            value={reason}
            maxLength={DIVERSION_REASON_MAX_LENGTH}
            required
            placeholder="e.g. CT scanner down"
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="submit" className="button button-danger" disabled={action.isPending || !reason.trim()}>
            Divert this ambulance
          </button>
          <button type="button" className="button" onClick={() => setDiverting(false)}>
            Cancel
          </button>
        </form>
      )}
      {action.isError && (
        <p role="alert" className="field-error">
          {action.error.message}
        </p>
      )}
    </section>
  );
}
