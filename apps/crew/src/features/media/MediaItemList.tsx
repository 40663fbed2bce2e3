import { formatBytes, MEDIA_LABEL, rowStatusText, type MediaRow } from './mediaModel';

function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function rowState(row: MediaRow): 'queued' | 'sending' | 'sent' | 'failed' | 'processing' {
  if (row.source === 'local') return row.item.status;
  if (row.upload.status === 'failed') return 'failed';
  return row.upload.status === 'processing' ? 'processing' : 'sent';
}

/**
 * Every photo, ID, EKG, video and voice memo of the case, newest first, with where it is: waiting to send,
 * sending (with its progress), sent, or not sent with the reason (the queue keeps trying).
 */
export function MediaItemList({ rows }: { rows: readonly MediaRow[] }) {
  if (rows.length === 0) return <p className="empty-state">No media yet.</p>;
  return (
    <ul className="media-items" aria-label="Media items">
      {rows.map((row) => {
        const state = rowState(row);
        const size = row.source === 'local' ? row.item.size : row.upload.size;
        const progress = row.source === 'local' && row.item.status === 'sending' ? row.item.progress : null;
        return (
          <li key={row.key} className={`media-item media-item--${state}`} data-state={state}>
            <span className="media-item__type">{MEDIA_LABEL[row.type]}</span>
            <span className="media-item__meta">
              <time dateTime={new Date(row.at).toISOString()}>{clock(row.at)}</time> · {formatBytes(size)}
            </span>
            <span className="media-item__status" role={state === 'failed' ? 'alert' : undefined}>
              {rowStatusText(row)}
            </span>
            {progress !== null && (
              <progress
                className="media-item__progress"
                max={1}
                value={Math.min(1, Math.max(0, progress))}
                aria-label={`${MEDIA_LABEL[row.type]} upload progress`}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
