import { useSyncExternalStore } from 'react';
import { messages, type Hospital } from '@inbound/contract';
import { caseOutbox } from '../../lib/caseOutbox';
import { useOutboxStatus } from '../../lib/outbox';
import { DeliveryState } from './DeliveryState';
import { RejectedChanges } from './RejectedChanges';

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** The browser's own idea of being online. */
export function useBrowserOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * The nav bar's network line (spec §2): Online / Offline — the browser's flag and whether the outbox's
 * last request got an answer — what is still waiting to be sent, and any change the server refused,
 * with its message and Retry / Discard.
 */
export function NetworkStatus({ caseId, destination = null }: { caseId: string; destination?: Hospital | null }) {
  const browserOnline = useBrowserOnline();
  const status = useOutboxStatus(caseOutbox, caseId);
  const online = browserOnline && status.online;
  return (
    <div className="case-status">
      <div className="case-status__line" role="status">
        <span className={online ? 'net-badge net-badge--online' : 'net-badge net-badge--offline'}>
          {online ? messages.online : messages.offline}
        </span>
        {status.pending > 0 && <span className="case-status__pending">{messages.changesWaiting(status.pending)}</span>}
        {status.held && <span className="case-status__held">{messages.signInToSend}</span>}
        <DeliveryState caseId={caseId} destination={destination} online={online} />
      </div>
      <RejectedChanges changes={status.rejected} />
    </div>
  );
}
