import type { SentBroadcast } from '@inbound/contract';
import { formatClock } from '../board/format';
import { useSentBroadcasts } from './queries';

/** Everything the hospital sent, from any of its consoles, newest first; older pages on demand. */
export function SentBroadcasts({ hospitalId }: { hospitalId: string }) {
  const sent = useSentBroadcasts(hospitalId);
  const items = sent.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <div className="broadcast-history">
      <h3 className="subsection-title">Sent</h3>
      {sent.isPending && <p role="status">Loading sent messages…</p>}
      {sent.isError && (
        <div role="alert" className="banner banner-error">
          {sent.error.message}{' '}
          <button className="button" type="button" onClick={() => void sent.refetch()}>
            Try again
          </button>
        </div>
      )}
      {sent.isSuccess && items.length === 0 && <p className="muted">Nothing sent from this hospital yet.</p>}
      {items.length > 0 && (
        <ul className="broadcast-sent" aria-label="Sent broadcasts">
          {items.map((b) => (
            <SentItem key={b._id} broadcast={b} />
          ))}
        </ul>
      )}
      {sent.hasNextPage && (
        <button
          className="button"
          type="button"
          disabled={sent.isFetchingNextPage}
          onClick={() => void sent.fetchNextPage()}
        >
          {sent.isFetchingNextPage ? 'Loading…' : 'Show older'}
        </button>
      )}
    </div>
  );
}

function SentItem({ broadcast: b }: { broadcast: SentBroadcast }) {
  return (
    <li className={b.urgent ? 'sent-item sent-urgent' : 'sent-item'}>
      <div className="sent-meta">
        <time dateTime={b.timestamp}>{formatClock(b.timestamp)}</time>
        {b.urgent && <span className="sent-flag sent-flag-urgent">Urgent</span>}
        {b.type === 'emsDispatch' && <span className="sent-flag sent-flag-dispatch">Dispatch {b.caseNumber}</span>}
        <span className="sent-to">To {b.agencies.map((a) => a.name).join(', ')}</span>
        {b.sentByName && <span className="muted">by {b.sentByName}</span>}
      </div>
      <p className="sent-content">{b.content}</p>
    </li>
  );
}
