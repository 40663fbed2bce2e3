/**
 * The case's media as the Media tab shows them: the server's list (GET /media/twiage-cases/{id}/uploads,
 * read on open and when an upload of this device completes; an upload or a finished conversion the case
 * channel announces is applied to it — features/case/caseChannel.ts) combined with the items still on
 * this device (mediaQueue).
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isCountedMediaType, type MediaUpload } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { isPlaceholderId } from '../../lib/outbox';
import { queryClient as appQueryClient } from '../../lib/queryClient';
import { mediaCounts, mediaRows, type ServerMedia } from './mediaModel';
import { useMediaItems, type MediaItem } from './mediaQueue';

export const caseMediaKey = (caseId: string) => ['case-media', caseId] as const;

export function useServerMedia(caseId: string | null): ServerMedia | null {
  const live = caseId !== null && !isPlaceholderId(caseId);
  const query = useQuery({
    queryKey: caseMediaKey(caseId ?? ''),
    queryFn: async ({ signal }): Promise<ServerMedia> => {
      const requestedAt = Date.now();
      const answer = await api.call('listMedia', { params: { id: caseId ?? '' }, signal });
      return { ...answer, requestedAt };
    },
    enabled: live,
    // Offline the last list stays; the device's own items carry the counts meanwhile.
    retry: false,
  });
  return query.data ?? null;
}

/**
 * An upload the case channel announced (recorded, or its conversion finished), applied to the server's
 * list as last read. A new one also counts from now: this device's items seen as sent before it are in
 * the server's list too (the channel delivers in commit order, and their own announcement came first or
 * is on its way) — the same rule as a read requested now.
 */
export function applyMediaUpload(caseId: string, upload: MediaUpload): void {
  // A call recording is the ED's (spec §3 counts the crew's five kinds): the crew neither lists nor counts it.
  const type = upload.type;
  if (!isCountedMediaType(type)) return;
  appQueryClient.setQueryData<ServerMedia>(caseMediaKey(caseId), (media) => {
    if (!media) return media;
    const at = media.uploads.findIndex((u) => u.id === upload.id);
    if (at >= 0) {
      // `media.converted` is told at once, the upload's `case.updated` after its commit is relayed: an
      // older `processing` never replaces the converted (ready or failed) upload.
      const held = media.uploads[at]!;
      if (upload.status === 'processing' && held.status !== 'processing') return media;
      return { ...media, uploads: media.uploads.map((u, i) => (i === at ? upload : u)) };
    }
    return {
      uploads: [...media.uploads, upload],
      mediaCounts: { ...media.mediaCounts, [type]: media.mediaCounts[type] + 1 },
      requestedAt: Date.now(),
    };
  });
}

/**
 * When this screen first saw each item as sent (ms), and a re-read of the server's list each time one
 * more is: from that read on the server's counts include it.
 */
function useSentTimes(caseId: string | null, items: readonly MediaItem[]): ReadonlyMap<string, number> {
  const queryClient = useQueryClient();
  const times = useRef(new Map<string, number>());
  const [snapshot, setSnapshot] = useState<ReadonlyMap<string, number>>(() => new Map());
  useEffect(() => {
    const newlySent = items.filter((item) => item.status === 'sent' && !times.current.has(item.key));
    if (newlySent.length === 0) return;
    const now = Date.now();
    for (const item of newlySent) times.current.set(item.key, now);
    setSnapshot(new Map(times.current));
    if (caseId && !isPlaceholderId(caseId)) void queryClient.invalidateQueries({ queryKey: caseMediaKey(caseId) });
  }, [items, caseId, queryClient]);
  return snapshot;
}

export function useCaseMedia(caseId: string | null) {
  const server = useServerMedia(caseId);
  const items = useMediaItems(caseId);
  const sentAt = useSentTimes(caseId, items);
  return {
    server,
    items,
    counts: mediaCounts(server, items, sentAt),
    rows: mediaRows(server, items, sentAt),
  };
}
