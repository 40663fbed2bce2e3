/**
 * What the crew sees of each media file on its way (issue 6 item 3): queued, sending with progress,
 * sent, or failed with the server's message. Built only from the outbox's events (`queued`, `progress`,
 * `retrying`, `sent`, `rejected`, `placeholder-resolved`, `cleared`) and, after a reload, from what the
 * outbox still holds — so it can never claim "sent" for a file the server has not answered 2xx.
 * Sent items of this page stay listed; nothing here holds bytes or patient data.
 */
import type { MediaEventType, MutationInfo, Outbox, OutboxEvent } from '../../../lib/outbox';

export type MediaItemStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface MediaItem {
  /** The outbox idempotency key. */
  key: string;
  /** Real or placeholder case id. */
  caseId: string;
  eventType: MediaEventType;
  /** Bytes. */
  size: number;
  /** Epoch ms. */
  createdAt: number;
  status: MediaItemStatus;
  /** 0..1 while sending, 1 when sent. */
  progress: number;
  /** Last error text shown to the crew (no PHI). */
  error: string | null;
  /**
   * The server's id of the upload, once its answer (2xx) named it — what matches the item with the same
   * upload in the server's list (read, or applied from the case channel). Absent until then.
   */
  uploadId?: string;
}

/** The upload id an upload's answer (MediaUploadResponse) names, if it is one. */
export function uploadIdOf(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const upload = (response as { upload?: unknown }).upload;
  if (typeof upload !== 'object' || upload === null) return undefined;
  const id = (upload as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

const EVENT_TYPES: readonly MediaEventType[] = ['photo', 'id', 'ekg', 'video', 'voicememo'];

export interface MediaItemStore {
  /** Every item, oldest first. The array keeps its identity until something changes. */
  items(): readonly MediaItem[];
  subscribe(listener: () => void): () => void;
  /** Reads back what the outbox still holds (after a reload); once. */
  load(): Promise<void>;
  /** An item the page just queued (its events may already have arrived: they win). */
  add(info: MutationInfo): MediaItem | null;
  /** Stops listening to the outbox. */
  close(): void;
}

/** The item a queued media change describes, or null for other changes. */
export function itemOf(info: MutationInfo, status: MediaItemStatus = 'queued'): MediaItem | null {
  if (info.kind !== 'media' || !info.media) return null;
  const type = info.media.fields.type as MediaEventType;
  if (!EVENT_TYPES.includes(type)) return null;
  return {
    key: info.key,
    caseId: info.caseId,
    eventType: type,
    size: info.media.size,
    createdAt: info.createdAt,
    status,
    progress: status === 'sent' ? 1 : 0,
    error: info.lastError && status === 'queued' ? friendly(info.lastError) : null,
  };
}

/** The outbox's attempt errors in the crew's words (they carry no patient data either way). */
function friendly(error: string): string {
  if (error === 'timed out') return 'No answer from the server; trying again.';
  if (error === 'no answer' || /fetch|network|upload/i.test(error)) return 'No connection; trying again every 2 s.';
  return `Not sent yet (${error}); trying again.`;
}

export function createMediaItemStore(
  outbox: Pick<Outbox, 'subscribe' | 'listPending' | 'listRejected'>,
): MediaItemStore {
  let list: readonly MediaItem[] = [];
  const listeners = new Set<() => void>();
  let loading: Promise<void> | null = null;

  function set(next: readonly MediaItem[]): void {
    if (next === list) return;
    list = next;
    for (const listener of listeners) listener();
  }

  function update(key: string, change: (item: MediaItem) => MediaItem, fallback: MediaItem | null): void {
    const index = list.findIndex((item) => item.key === key);
    if (index === -1) {
      if (fallback) set([...list, change(fallback)].sort((a, b) => a.createdAt - b.createdAt));
      return;
    }
    const before = list[index]!;
    const after = change(before);
    if (sameItem(before, after)) return;
    const next = [...list];
    next[index] = after;
    set(next);
  }

  function onEvent(event: OutboxEvent): void {
    switch (event.type) {
      case 'queued':
        update(event.mutation.key, (item) => item, itemOf(event.mutation));
        return;
      case 'progress': {
        if (event.mutation.kind !== 'media') return;
        const progress = event.total > 0 ? Math.min(1, event.loaded / event.total) : 0;
        update(
          event.mutation.key,
          (item) =>
            item.status === 'sent'
              ? item
              : // Redrawn per whole percent: a video's progress events come by the hundred.
                { ...item, status: 'sending', progress: Math.floor(progress * 100) / 100, error: null },
          itemOf(event.mutation),
        );
        return;
      }
      case 'retrying':
        if (event.mutation.kind !== 'media') return;
        update(
          event.mutation.key,
          (item) => (item.status === 'sent' ? item : { ...item, status: 'queued', error: friendly(event.error) }),
          itemOf(event.mutation),
        );
        return;
      case 'sent': {
        if (event.mutation.kind !== 'media') return;
        const uploadId = uploadIdOf(event.response);
        update(
          event.mutation.key,
          (item) => ({
            ...item,
            status: 'sent',
            progress: 1,
            error: null,
            ...(uploadId !== undefined ? { uploadId } : {}),
          }),
          itemOf(event.mutation, 'sent'),
        );
        return;
      }
      case 'rejected':
        if (event.mutation.kind !== 'media') return;
        update(
          event.mutation.key,
          (item) => ({ ...item, status: 'failed', error: event.mutation.message }),
          itemOf(event.mutation, 'failed'),
        );
        return;
      case 'placeholder-resolved':
        if (!list.some((item) => item.caseId === event.placeholderId)) return;
        set(list.map((item) => (item.caseId === event.placeholderId ? { ...item, caseId: event.caseId } : item)));
        return;
      case 'cleared':
        set([]);
        return;
      default:
        return;
    }
  }

  const unsubscribe = outbox.subscribe(onEvent);

  return {
    items: () => list,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load() {
      loading ??= (async () => {
        const [pending, rejected] = await Promise.all([outbox.listPending(), outbox.listRejected()]);
        const found = [
          ...pending.map((info) => itemOf(info)),
          ...rejected.map((info) => {
            const item = itemOf(info, 'failed');
            return item && { ...item, error: info.message };
          }),
        ].filter((item): item is MediaItem => item !== null);
        const known = new Set(list.map((item) => item.key));
        const fresh = found.filter((item) => !known.has(item.key));
        if (fresh.length > 0) set([...list, ...fresh].sort((a, b) => a.createdAt - b.createdAt));
      })();
      loading.catch(() => {
        loading = null;
      });
      return loading;
    },
    add(info) {
      const item = itemOf(info);
      if (item) update(info.key, (existing) => existing, item);
      return list.find((existing) => existing.key === info.key) ?? item;
    },
    close: unsubscribe,
  };
}

function sameItem(a: MediaItem, b: MediaItem): boolean {
  return (
    a.status === b.status &&
    a.progress === b.progress &&
    a.error === b.error &&
    a.caseId === b.caseId &&
    a.size === b.size &&
    a.uploadId === b.uploadId
  );
}
