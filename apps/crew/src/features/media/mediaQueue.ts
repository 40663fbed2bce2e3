/**
 * The media feature's way out (issue 6 item 3): captured files go into the case outbox, which keeps
 * them in IndexedDB until the server answered 2xx, sends them once the case id is real, retries every
 * 2 s, and sends files above 4 MB resumably over tus (lib/outbox/tusTransport.ts). The screens get:
 *
 * - `enqueueMedia` — resolves once the file is durably in the outbox;
 * - `useMediaItems(caseId)` — the case's files: queued, sending (with progress), sent, failed;
 * - `preparePhoto` — a still resized to 1440 px and JPEG 0.8 on the device (queue/preparePhoto.ts).
 *
 * A voice memo with `asChat` carries `chatLength`: the server records the VOICE_MEMO chat message in the
 * same write as the upload, and its answer's `chatMessage` is put in the chat at once.
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { MediaUploadResponse } from '@inbound/contract';
import { caseOutbox } from '../../lib/caseOutbox';
import { caseMutations, type MediaEventType as OutboxMediaEventType } from '../../lib/outbox';
import { queryClient } from '../../lib/queryClient';
import { useSession } from '../../lib/session';
import { whenChangesQueued } from '../case/mutations';
import { upsertMessage } from '../chat/chatModel';
import { chatKeys } from '../chat/outgoing';
import { createMediaItemStore, type MediaItem, type MediaItemStatus } from './queue/mediaItems';
import { preparePhoto } from './queue/preparePhoto';

export type MediaEventType = OutboxMediaEventType;
export type { MediaItem, MediaItemStatus };
export { preparePhoto };

const store = createMediaItemStore(caseOutbox);

caseOutbox.subscribe((event) => {
  if (event.type !== 'sent' || event.mutation.kind !== 'media') return;
  const answer = MediaUploadResponse.safeParse(event.response);
  const message = answer.success ? answer.data.chatMessage : undefined;
  if (message) {
    queryClient.setQueryData(chatKeys.messages(message.caseId), (list: Parameters<typeof upsertMessage>[0] = []) =>
      upsertMessage(list, message),
    );
  }
});

/** Resolves once the item is durably in the outbox (IndexedDB). */
export async function enqueueMedia(input: {
  caseId: string;
  eventType: MediaEventType;
  blob: Blob;
  /** Voice memos only: length in seconds; with `asChat: true` the server also posts a VOICE_MEMO chat message. */
  lengthSeconds?: number;
  asChat?: boolean;
}): Promise<MediaItem> {
  if (input.asChat && (input.eventType !== 'voicememo' || input.lengthSeconds === undefined)) {
    throw new Error('Only a voice memo with its length can be posted in the chat.');
  }
  const chatLength =
    input.asChat && input.lengthSeconds !== undefined ? Math.max(1, Math.round(input.lengthSeconds)) : undefined;
  const mutation = caseMutations.media(
    input.caseId,
    input.eventType,
    input.blob,
    chatLength === undefined ? {} : { chatLength },
  );
  // After anything tapped before it (the create of a case started offline), so the outbox keeps that order.
  await whenChangesQueued();
  const info = await caseOutbox.enqueue(mutation);
  const item = store.add(info);
  if (!item) throw new Error('The media file was queued without its description.');
  return item;
}

/** Live list of this case's media items (queued/sending/sent in this session + still pending after reload). */
export function useMediaItems(caseId: string | null): MediaItem[] {
  useEffect(() => {
    store.load().catch((error: unknown) => console.error('waiting media could not be read back', error));
  }, []);
  const all = useSyncExternalStore(store.subscribe, store.items);
  return useMemo(() => (caseId === null ? [] : all.filter((item) => item.caseId === caseId)), [all, caseId]);
}

/** Tests and the bench: the items of every case, as they are now. */
export function mediaItemsSnapshot(): readonly MediaItem[] {
  return store.items();
}

/**
 * For the browser bench and tests (bench/media-send.ts): with `localStorage['inbound-test-hooks'] = 'on'`
 * the page gets `window.__inboundMedia` — these functions and the open case's id, nothing stored.
 */
export interface MediaTestHooks {
  enqueueMedia: typeof enqueueMedia;
  preparePhoto: typeof preparePhoto;
  items: typeof mediaItemsSnapshot;
  caseId: () => string | null;
}

try {
  if (typeof window !== 'undefined' && window.localStorage.getItem('inbound-test-hooks') === 'on') {
    const hooks: MediaTestHooks = {
      enqueueMedia,
      preparePhoto,
      items: mediaItemsSnapshot,
      caseId: () => useSession.getState().case?.id ?? null,
    };
    (window as unknown as { __inboundMedia?: MediaTestHooks }).__inboundMedia = hooks;
  }
} catch {
  // No localStorage (private mode): no hooks.
}
