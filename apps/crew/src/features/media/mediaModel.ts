/**
 * The Media tab's figures as pure functions: each button's count and the list under the buttons.
 *
 * Count = what the server holds (the case's media counts, §3) + what this device still has on its way.
 * An item the queue reports `sent` is in the server's counts only from the next read of the server's list
 * on; until that read has started, it is counted here — so a count never dips or doubles at the moment
 * an upload completes.
 */
import { isCountedMediaType, type MediaUpload } from '@inbound/contract';
import type { MediaEventType, MediaItem } from './mediaQueue';

/** Items per media type (the case's `mediaCounts`, §3). */
export type MediaCounts = Record<MediaEventType, number>;

export const MEDIA_BUTTONS: readonly { type: MediaEventType; label: string }[] = [
  { type: 'photo', label: 'Photo' },
  { type: 'id', label: 'ID' },
  { type: 'ekg', label: 'EKG' },
  { type: 'video', label: 'Video' },
  { type: 'voicememo', label: 'Voice Memo' },
];

export const MEDIA_LABEL: Record<MediaEventType, string> = {
  photo: 'Photo',
  id: 'ID',
  ekg: 'EKG',
  video: 'Video',
  voicememo: 'Voice Memo',
};

export const EMPTY_COUNTS: MediaCounts = { photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0 };

/** The server's list as last read: its counts and uploads, and when that read was started (ms). */
export interface ServerMedia {
  mediaCounts: MediaCounts;
  uploads: MediaUpload[];
  requestedAt: number;
}

/**
 * Whether a local item is not (yet) in `server`: never read, the item still queued/sending/failed, or
 * — its upload id known from the server's answer — that upload not in the list; without the id, its
 * upload finished after the server's list was requested. `sentAt` is when this device first saw the
 * item as sent (see `useSentTimes`).
 */
export function isPendingLocally(
  item: MediaItem,
  server: ServerMedia | null,
  sentAt: ReadonlyMap<string, number>,
): boolean {
  if (item.status !== 'sent') return true;
  if (!server) return true;
  // The same upload in the server's list (read, or applied from the case channel — possibly before this
  // device saw its own answer): counted there, never twice.
  if (item.uploadId !== undefined) return !server.uploads.some((upload) => upload.id === item.uploadId);
  const seen = sentAt.get(item.key);
  return seen !== undefined && seen >= server.requestedAt;
}

export function mediaCounts(
  server: ServerMedia | null,
  local: readonly MediaItem[],
  sentAt: ReadonlyMap<string, number>,
): MediaCounts {
  const counts = { ...(server?.mediaCounts ?? EMPTY_COUNTS) };
  for (const item of local) {
    if (isPendingLocally(item, server, sentAt)) counts[item.eventType] += 1;
  }
  return counts;
}

/** One row of the list under the buttons, newest first. */
export type MediaRow =
  | { source: 'local'; key: string; type: MediaEventType; at: number; item: MediaItem }
  | { source: 'server'; key: string; type: MediaEventType; at: number; upload: MediaUpload };

export function mediaRows(
  server: ServerMedia | null,
  local: readonly MediaItem[],
  sentAt: ReadonlyMap<string, number>,
): MediaRow[] {
  const rows: MediaRow[] = [
    ...local
      .filter((item) => isPendingLocally(item, server, sentAt))
      .map((item): MediaRow => ({ source: 'local', key: item.key, type: item.eventType, at: item.createdAt, item })),
    ...(server?.uploads ?? []).flatMap((upload): MediaRow[] => {
      const type = upload.type;
      // The server lists no call recording to a crew; one told on the case channel is not the crew's.
      if (!isCountedMediaType(type)) return [];
      return [{ source: 'server', key: upload.id, type, at: Date.parse(upload.createdAt), upload }];
    }),
  ];
  return rows.sort((a, b) => b.at - a.at);
}

/** What a row says about its delivery. */
export function rowStatusText(row: MediaRow): string {
  if (row.source === 'server') {
    if (row.upload.status === 'failed') return 'Sent — the hospital cannot play it (conversion failed)';
    if (row.upload.status === 'processing') return 'Sent — preparing for the hospital';
    return 'Sent';
  }
  switch (row.item.status) {
    case 'queued':
      return 'Waiting to send';
    case 'sending':
      return `Sending ${Math.round(Math.min(1, Math.max(0, row.item.progress)) * 100)} %`;
    case 'sent':
      return 'Sent';
    case 'failed':
      return `Not sent: ${row.item.error ?? 'the upload failed'}`;
  }
}

/** `12 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_024) return `${bytes} B`;
  if (bytes < 1_048_576) return `${Math.round(bytes / 1_024)} KB`;
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
