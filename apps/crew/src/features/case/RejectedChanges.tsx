import { caseOutbox } from '../../lib/caseOutbox';
import type { RejectedMutation } from '../../lib/outbox';

/** Changes the server refused, each with its message and the crew's choice: Retry or Discard. */
export function RejectedChanges({ changes }: { changes: readonly RejectedMutation[] }) {
  if (changes.length === 0) return null;
  return (
    <ul className="rejected-list" aria-label="Changes the server refused">
      {changes.map((change) => (
        <li key={change.key} className="rejected-list__item" role="alert">
          <span className="rejected-list__message">{change.message}</span>
          <span className="rejected-list__actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void caseOutbox.retryRejected(change.key)}
            >
              Retry
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => void caseOutbox.discardRejected(change.key)}
            >
              Discard
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}
