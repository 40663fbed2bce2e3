import { useState } from 'react';
import type { MediaType, MediaUpload } from '@inbound/contract';
import { formatClock } from '../board/format';
import { MediaViewer } from './MediaViewer';
import { useCaseMedia, useMediaLink } from './queries';

export const MEDIA_LABELS: Record<MediaType, string> = {
  photo: 'Photo',
  id: 'ID',
  ekg: 'EKG',
  video: 'Video',
  voicememo: 'Voice memo',
  callrecording: 'Call recording',
};

const STILLS = new Set<MediaType>(['photo', 'id', 'ekg']);

/** 83 000 ms → "1:23". */
export function formatLength(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null;
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/**
 * Everything the crew uploaded for this case, newest first and live: stills as thumbnails that open
 * the zoomable viewer, video and voice memos playable in the page. Until the server has converted a
 * recording it reads "Converting…", and the item turns into a player by itself when the server says
 * the conversion is done (`case.updated` with `event: null`, see queries.ts).
 */
export function MediaPanel({ hospitalId, caseId }: { hospitalId: string; caseId: string }) {
  const media = useCaseMedia(hospitalId, caseId);
  const [open, setOpen] = useState<{ upload: MediaUpload; src: string } | null>(null);

  let body;
  if (media.isPending) body = <p role="status">Loading media…</p>;
  else if (media.isError)
    body = (
      <p role="alert" className="banner banner-error">
        {media.error.message}
      </p>
    );
  else if (media.data.uploads.length === 0) body = <p className="muted">No photos, EKGs, videos or voice memos yet.</p>;
  else {
    const uploads = [...media.data.uploads].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    body = (
      <ul className="media-list" aria-label="Uploads">
        {uploads.map((upload) => (
          <MediaItem key={upload.id} caseId={caseId} upload={upload} onOpen={(src) => setOpen({ upload, src })} />
        ))}
      </ul>
    );
  }

  const counts = media.data?.mediaCounts;
  return (
    <section className="panel media-panel" aria-labelledby="media-title">
      <div className="panel-head">
        <h2 id="media-title">Media</h2>
        {counts && (media.data?.uploads.length ?? 0) > 0 && (
          <p className="media-counts muted">
            {counts.photo} photo{counts.photo === 1 ? '' : 's'} · {counts.ekg} EKG · {counts.video} video
            {counts.video === 1 ? '' : 's'} · {counts.voicememo} voice memo{counts.voicememo === 1 ? '' : 's'} ·{' '}
            {counts.id} ID
          </p>
        )}
      </div>
      {body}
      {open && (
        <MediaViewer
          src={open.src}
          title={`${MEDIA_LABELS[open.upload.type]}, ${formatClock(open.upload.createdAt)}`}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  );
}

function MediaItem({ caseId, upload, onOpen }: { caseId: string; upload: MediaUpload; onOpen: (src: string) => void }) {
  const ready = upload.status === 'ready';
  const link = useMediaLink(caseId, upload.id, ready);
  // A recording its console sent after closing mid-call: it stops where the console did, not where the call did.
  const label = upload.partial ? `${MEDIA_LABELS[upload.type]} (partial)` : MEDIA_LABELS[upload.type];
  const length = formatLength(upload.durationMs);
  const still = STILLS.has(upload.type);

  let content;
  if (upload.status === 'processing') {
    content = (
      <p className="media-status media-converting" role="status">
        <span className="spinner" aria-hidden="true" /> Converting…
      </p>
    );
  } else if (upload.status === 'failed') {
    content = <p className="media-status media-failed">This file could not be converted for playing.</p>;
  } else if (link.isError) {
    content = (
      <p className="media-status media-failed" role="alert">
        {link.error.message}{' '}
        <button type="button" className="link-button" onClick={() => void link.refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!link.data) {
    content = <p className="media-status muted">Loading…</p>;
  } else if (still) {
    const src = link.data.url;
    content = (
      <button
        type="button"
        className="media-thumb"
        onClick={() => onOpen(src)}
        aria-label={`Open ${label} from ${formatClock(upload.createdAt)} full screen`}
      >
        <img src={src} alt="" loading="lazy" />
        <span className="media-thumb-zoom" aria-hidden="true">
          ⤢
        </span>
      </button>
    );
  } else if (upload.type === 'video') {
    content = (
      <video
        className="media-video"
        controls
        preload="metadata"
        playsInline
        src={link.data.url}
        aria-label={`${label} from ${formatClock(upload.createdAt)}`}
      />
    );
  } else {
    content = (
      <audio
        className="media-audio"
        controls
        preload="metadata"
        src={link.data.url}
        aria-label={`${label} from ${formatClock(upload.createdAt)}${length ? `, ${length}` : ''}`}
      />
    );
  }

  return (
    <li
      className={`media-item media-item-${upload.type}${still ? ' media-item-still' : ''}`}
      data-status={upload.status}
    >
      <p className="media-meta">
        <span
          className={`media-type media-type-${upload.type}`}
          title={upload.partial ? 'The console closed during the call: recorded until then.' : undefined}
        >
          {label}
        </span>
        <time dateTime={upload.createdAt}>{formatClock(upload.createdAt)}</time>
        {length && <span className="media-length">{length}</span>}
      </p>
      {content}
    </li>
  );
}
