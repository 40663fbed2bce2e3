import { dispatchMessages, type DispatchedCase } from '@inbound/contract';
import { formatClock } from '../board/format';
import { PriorityBadge } from '../board/PriorityBadge';
import { useState } from 'react';
import { useBroadcastUpdates, useCancelDispatch, useDispatches } from './queries';

/**
 * On the board: the cases this hospital dispatched. One not yet loaded by a crew says so plainly
 * ("Dispatched — awaiting crew"); once a crew claims it, it names the truck, and the case itself is on
 * the inbound board like any other. Hidden when there is nothing dispatched.
 */
export function DispatchedCases({ hospitalId }: { hospitalId: string }) {
  const dispatches = useDispatches(hospitalId);
  useBroadcastUpdates(hospitalId);
  const list = dispatches.data?.data ?? [];
  if (list.length === 0) return null;
  const awaiting = list.filter((d) => d.status === 'awaitingCrew').length;

  return (
    <section className="panel dispatched" aria-label="Dispatched cases">
      <h2 className="section-title">
        Dispatched cases
        <span className="section-count">{awaiting === 0 ? 'All claimed' : `${awaiting} awaiting crew`}</span>
      </h2>
      <ul className="dispatched-list">
        {list.map((d) => (
          <DispatchRow key={d._id} dispatch={d} hospitalId={hospitalId} />
        ))}
      </ul>
    </section>
  );
}

function DispatchRow({ dispatch: d, hospitalId }: { dispatch: DispatchedCase; hospitalId: string }) {
  const claimed = d.claim !== null;
  const cancel = useCancelDispatch(hospitalId);
  const [confirming, setConfirming] = useState(false);
  return (
    <li
      className={
        claimed || d.status === 'cancelled' ? 'dispatch-card dispatch-claimed' : 'dispatch-card dispatch-awaiting'
      }
    >
      <div className="dispatch-head">
        <span className="dispatch-number">{d.caseNumber}</span>
        <PriorityBadge priority={d.complaint?.priority ?? null} />
        <span className="dispatch-complaint">{d.complaint?.name ?? 'Complaint: crew chooses'}</span>
        {d.urgent && <span className="sent-flag sent-flag-urgent">Urgent</span>}
      </div>
      <p className="dispatch-state">
        {d.claim ? (
          <>
            <strong>{dispatchMessages.claimedBy(d.claim.truckName)}</strong> · {d.claim.agencyName} ·{' '}
            {formatClock(d.claim.at)}
          </>
        ) : d.cancelled ? (
          <>
            <strong>{dispatchMessages.cancelled}</strong> · {d.cancelled.byName} · {formatClock(d.cancelled.at)}
          </>
        ) : (
          <>
            <strong>{dispatchMessages.awaitingCrew}</strong> · {d.agency.name}
          </>
        )}
      </p>
      <p className="muted">
        Dispatched {formatClock(d.dispatchedAt)} by {d.dispatchedByName}
        {d.notes ? ` — ${d.notes}` : ''}
      </p>
      {d.status === 'awaitingCrew' &&
        (confirming ? (
          <div className="dispatch-cancel">
            <button
              type="button"
              className="button button-danger"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate(d._id)}
            >
              Cancel dispatch {d.caseNumber}
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        ) : (
          <button type="button" className="button button-small" onClick={() => setConfirming(true)}>
            Cancel dispatch…
          </button>
        ))}
      {cancel.error && (
        <p role="alert" className="field-error">
          {cancel.error.message}
        </p>
      )}
    </li>
  );
}
