/**
 * The case's media as the Media tab shows them: the server's list (GET /media/twiage-cases/{id}/uploads,
 * read on open, again when the case channel announces an upload or a finished conversion, and when an
 * upload of this device completes) combined with the items still on this device (mediaQueue).
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CASE_CHANNEL_EVENTS, channelName, MEDIA_TYPES, parseChannelMessage } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { isPlaceholderId } from '../../lib/outbox';
import { realtime } from '../../lib/realtime';
import { mediaCounts, mediaRows, type ServerMedia } from './mediaModel';
import { useMediaItems, type MediaItem } from './mediaQueue';

export const caseMediaKey = (caseId: string) => ['case-media', caseId] as const;

const MEDIA_EVENTS = new Set<string>(MEDIA_TYPES);

export function useServerMedia(caseId: string | null): ServerMedia | null {
  const live = caseId !== null && !isPlaceholderId(caseId);
  const queryClient = useQueryClient();
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
  useEffect(() => {
    if (!live || caseId === null) return undefined;
    const refetch = () => void queryClient.invalidateQueries({ queryKey: caseMediaKey(caseId) });
    return realtime.subscribe(channelName('case', caseId), {
      onSubscribed: refetch,
      onEvent: (event) => {
        const message = parseChannelMessage('case', event);
        // An upload recorded, or its conversion finished (docs/media.md, step 5).
        const media =
          message?.type === CASE_CHANNEL_EVENTS.mediaConverted ||
          (message?.type === CASE_CHANNEL_EVENTS.caseUpdated && MEDIA_EVENTS.has(message.data.event.type));
        if (media) refetch();
      },
    });
  }, [caseId, live, queryClient]);
  return query.data ?? null;
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
