import { describe, expect, it } from 'vitest';
import type { MediaUpload } from '@inbound/contract';
import { mediaCounts, mediaRows, rowStatusText, type ServerMedia } from './mediaModel';
import type { MediaItem } from './mediaQueue';

function item(key: string, overrides: Partial<MediaItem> = {}): MediaItem {
  return {
    key,
    caseId: 'case-1',
    eventType: 'photo',
    size: 300_000,
    createdAt: 1_000,
    status: 'queued',
    progress: 0,
    error: null,
    ...overrides,
  };
}

function upload(id: string, type: MediaUpload['type'], createdAt = '2026-11-22T05:00:00.000Z'): MediaUpload {
  return {
    id,
    type,
    status: 'ready',
    fileName: `${type}.jpeg`,
    contentType: 'image/jpeg',
    size: 1,
    durationMs: null,
    createdAt,
    url: `/media/twiage-cases/case-1/uploads/${id}/${type}.jpeg`,
  };
}

const server = (counts: Partial<ServerMedia['mediaCounts']>, requestedAt: number, uploads: MediaUpload[] = []) => ({
  mediaCounts: { photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0, ...counts },
  uploads,
  requestedAt,
});

describe('media counts', () => {
  it('are the local items alone while the server has not been read (offline)', () => {
    const local = [
      item('a'),
      item('b', { eventType: 'video', status: 'sending' }),
      item('c', { eventType: 'voicememo', status: 'failed', error: 'x' }),
    ];
    expect(mediaCounts(null, local, new Map())).toEqual({ photo: 1, id: 0, ekg: 0, video: 1, voicememo: 1 });
  });

  it("add what is still on the device to the server's counts", () => {
    const local = [item('a'), item('b', { eventType: 'ekg', status: 'sending' })];
    expect(mediaCounts(server({ photo: 2, ekg: 1 }, 5_000), local, new Map())).toEqual({
      photo: 3,
      id: 0,
      ekg: 2,
      video: 0,
      voicememo: 0,
    });
  });

  it('count a sent item once: locally until a read of the server started after it was sent, then only there', () => {
    const local = [item('a', { status: 'sent' })];
    const sentAt = new Map([['a', 2_000]]);
    // The list was requested before the upload completed: it does not hold it yet.
    expect(mediaCounts(server({ photo: 0 }, 1_500), local, sentAt).photo).toBe(1);
    // A read requested after: the server's count has it, the device no longer adds it.
    expect(mediaCounts(server({ photo: 1 }, 2_500), local, sentAt).photo).toBe(1);
    // Sent before this screen saw it (no time): the server's count has it.
    expect(mediaCounts(server({ photo: 1 }, 2_500), [item('z', { status: 'sent' })], new Map()).photo).toBe(1);
  });
});

describe('media rows', () => {
  it('lists the server uploads and the pending items newest first, without the sent ones twice', () => {
    const rows = mediaRows(
      server({ photo: 1 }, 3_000, [upload('u1', 'photo', new Date(2_000).toISOString())]),
      [item('a', { status: 'sent', createdAt: 1_900 }), item('b', { createdAt: 4_000, eventType: 'id' })],
      new Map([['a', 2_500]]),
    );
    expect(rows.map((row) => row.key)).toEqual(['b', 'u1']);
  });

  it('says where each item is', () => {
    const local = (overrides: Partial<MediaItem>) => ({
      source: 'local' as const,
      key: 'k',
      type: 'photo' as const,
      at: 0,
      item: item('k', overrides),
    });
    expect(rowStatusText(local({ status: 'queued' }))).toBe('Waiting to send');
    expect(rowStatusText(local({ status: 'sending', progress: 0.42 }))).toBe('Sending 42 %');
    expect(rowStatusText(local({ status: 'failed', error: 'The photo file is too large: at most 15 MB.' }))).toBe(
      'Not sent: The photo file is too large: at most 15 MB.',
    );
    const processing = { ...upload('u', 'video'), status: 'processing' as const };
    expect(rowStatusText({ source: 'server', key: 'u', type: 'video', at: 0, upload: processing })).toBe(
      'Sent — preparing for the hospital',
    );
  });
});
