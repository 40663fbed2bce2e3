import { messages } from '@inbound/contract';
import { caseOutbox } from '../../lib/caseOutbox';
import { useOutboxStatus } from '../../lib/outbox';
import { useSession, type ClosedCase } from '../../lib/session';
import { RejectedChanges } from '../case/RejectedChanges';

/**
 * Start's view of closed cases whose changes have not all reached the server: the case screen (and its
 * network line) is gone after a close, but the crew must still see that something waits — and answer a
 * refused change — before the device can let go of the case (features/case/closedCaseWipe).
 */
export function ClosedCasesStatus() {
  const closedCases = useSession((state) => state.closedCases);
  if (closedCases.length === 0) return null;
  return (
    <section className="closed-cases" aria-label="Closed cases still sending">
      {closedCases.map((closed) => (
        <ClosedCaseLine key={closed.id} closed={closed} />
      ))}
    </section>
  );
}

function ClosedCaseLine({ closed }: { closed: ClosedCase }) {
  const status = useOutboxStatus(caseOutbox, closed.id);
  if (status.pending === 0 && status.rejected.length === 0) return null;
  return (
    <div className="closed-cases__case">
      <p className="closed-cases__line" role="status">
        <strong>Closed case {closed.caseNumber}</strong>
        {status.pending > 0 && <span> · {messages.changesWaiting(status.pending)}</span>}
        {status.held && <span> · {messages.signInToSend}</span>}
      </p>
      <RejectedChanges changes={status.rejected} />
    </div>
  );
}
