import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { MediaListResponse, MediaUpload } from '@inbound/contract';
import { caseKeys, handleCaseEvent } from './queries';

vi.mock('../../lib/client', () => ({ api: vi.fn() }));

const upload = (id: string, status: MediaUpload['status']): MediaUpload => ({
  id,
  type: 'video',
  status,
  fileName: 'video.mp4',
  contentType: 'video/mp4',
  size: 1000,
  durationMs: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  url: `/media/files/${id}`,
});

describe('handleCaseEvent (the open case on the console)', () => {
  it('applies a finished conversion and a new upload to the cached list without a read; reads again what it cannot parse', () => {
    const client = new QueryClient();
    const key = caseKeys.media('h1', 'c1');
    const counts = { photo: 0, id: 0, ekg: 0, video: 1, voicememo: 0 };
    client.setQueryData<MediaListResponse>(key, { uploads: [upload('u1', 'processing')], mediaCounts: counts });
    const invalidate = vi.spyOn(client, 'invalidateQueries');

    handleCaseEvent(client, 'h1', 'c1', {
      type: 'media.converted',
      data: { caseId: 'c1', upload: upload('u1', 'ready') },
    });
    handleCaseEvent(client, 'h1', 'c1', {
      type: 'case.updated',
      data: {
        caseId: 'c1',
        upload: upload('u2', 'processing'),
        event: {
          id: 'e2',
          caseId: 'c1',
          seq: 2,
          createdAt: '2026-11-25T10:01:00.000Z',
          clientCreatedAt: null,
          actorUserId: 'u-medic1',
          type: 'video',
          payload: { uploadId: 'u2', type: 'video', fileName: 'video.mp4', contentType: 'video/mp4', size: 1000 },
        },
      },
    });
    const list = client.getQueryData<MediaListResponse>(key)!;
    expect(list.uploads.map((u) => [u.id, u.status])).toEqual([
      ['u1', 'ready'],
      ['u2', 'processing'],
    ]);
    expect(list.mediaCounts.video).toBe(2);
    expect(invalidate.mock.calls.some(([filters]) => JSON.stringify(filters?.queryKey) === JSON.stringify(key))).toBe(
      false,
    );

    handleCaseEvent(client, 'h1', 'c1', { type: 'case.updated', data: { caseId: 'c1', event: null } });
    expect(invalidate.mock.calls.some(([filters]) => JSON.stringify(filters?.queryKey) === JSON.stringify(key))).toBe(
      true,
    );
  });
});
