import { afterEach, describe, expect, it } from 'vitest';
import type { MediaUpload } from '@inbound/contract';
import type { MutationInfo, OutboxEvent } from '../../lib/outbox';
import { queryClient } from '../../lib/queryClient';
import { EMPTY_COUNTS, mediaCounts, mediaRows, type ServerMedia } from './mediaModel';
import { createMediaItemStore } from './queue/mediaItems';
import { applyMediaUpload, caseMediaKey } from './useCaseMedia';

const caseId = 'case-1';

function memoUpload(status: MediaUpload['status'] = 'processing'): MediaUpload {
  return {
    id: 'upload-memo',
    type: 'voicememo',
    status,
    fileName: 'voicememo.mp3',
    contentType: 'audio/mpeg',
    size: 12_000,
    durationMs: status === 'ready' ? 3_000 : null,
    createdAt: '2026-11-25T12:00:00.000Z',
    url: `/media/twiage-cases/${caseId}/uploads/upload-memo/voicememo.mp3`,
  };
}

const memoMutation: MutationInfo = {
  key: 'key-memo',
  seq: 1,
  caseId,
  placeholderId: null,
  kind: 'media',
  method: 'POST',
  path: `/media/twiage-cases/${caseId}/uploads`,
  createdAt: 1_000,
  attempts: 1,
  nextAttemptAt: 0,
  lastError: null,
  media: { fields: { type: 'voicememo' }, contentType: 'audio/webm', size: 12_000 },
};

/** The device's queue, fed the outbox's events by hand. */
function deviceQueue() {
  let emit: (event: OutboxEvent) => void = () => undefined;
  const store = createMediaItemStore({
    subscribe: (listener) => {
      emit = listener;
      return () => undefined;
    },
    listPending: () => Promise.resolve([]),
    listRejected: () => Promise.resolve([]),
  });
  return { store, emit: (event: OutboxEvent) => emit(event) };
}

const server = () => queryClient.getQueryData<ServerMedia>(caseMediaKey(caseId)) ?? null;

afterEach(() => queryClient.removeQueries({ queryKey: caseMediaKey(caseId) }));

describe('the Media tab: the server list with channel events applied + the device queue', () => {
  it('counts a voice memo once when its case.updated arrives before the device saw its own answer', () => {
    queryClient.setQueryData<ServerMedia>(caseMediaKey(caseId), {
      uploads: [],
      mediaCounts: { ...EMPTY_COUNTS },
      requestedAt: Date.now() - 60_000,
    });
    const { store, emit } = deviceQueue();
    emit({ type: 'queued', mutation: memoMutation });
    emit({ type: 'progress', mutation: memoMutation, loaded: 6_000, total: 12_000 });

    // The server committed the upload; its announcement beats the HTTP answer to this device.
    applyMediaUpload(caseId, memoUpload('processing'));

    // Then the answer (2xx, naming the upload); this screen sees the item as sent only now.
    emit({
      type: 'sent',
      mutation: memoMutation,
      status: 201,
      response: { upload: memoUpload('processing'), mediaCounts: { ...EMPTY_COUNTS, voicememo: 1 } },
    });
    const items = store.items();
    const sentAt = new Map([[memoMutation.key, Date.now() + 1]]);

    expect(mediaCounts(server(), items, sentAt).voicememo).toBe(1);
    expect(mediaRows(server(), items, sentAt)).toHaveLength(1);

    // Its conversion ends (media.converted): still one.
    applyMediaUpload(caseId, memoUpload('ready'));
    expect(mediaCounts(server(), items, sentAt).voicememo).toBe(1);
    expect(mediaRows(server(), items, sentAt)).toHaveLength(1);
  });

  it('keeps a converted upload when the older case.updated (processing) is applied after it', () => {
    queryClient.setQueryData<ServerMedia>(caseMediaKey(caseId), {
      uploads: [],
      mediaCounts: { ...EMPTY_COUNTS },
      requestedAt: Date.now() - 60_000,
    });
    applyMediaUpload(caseId, memoUpload('ready'));
    applyMediaUpload(caseId, memoUpload('processing'));
    expect(server()?.uploads).toEqual([memoUpload('ready')]);
    expect(server()?.mediaCounts.voicememo).toBe(1);
  });
});
