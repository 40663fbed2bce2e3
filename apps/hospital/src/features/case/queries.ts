/**
 * What the case detail reads beside the case itself — its uploads, its chat, the crews' feedback — and
 * how it stays live: the `case:{id}` channel carries `chat.message`, `chat.receipt`, `media.converted`
 * and `case.updated` (an upload recorded, feedback given), each applied to the caches. Every
 * (re)subscription reads all three again rather than trusting that nothing was missed while the socket
 * was down.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  isCountedMediaType,
  MEDIA_ACCESS_TTL_MS,
  isMediaCaseEvent,
  parseChannelMessage,
  type ChatMessage,
  type ChatMessagesResponse,
  type ChatReceipt,
  type MediaListResponse,
  type MediaUpload,
  type RealtimeEvent,
} from '@inbound/contract';
import { api } from '../../lib/client';
import { useChannel } from '../../lib/realtime/realtime';

export const caseKeys = {
  media: (hospitalId: string, caseId: string) => ['inbound-case', hospitalId, caseId, 'media'] as const,
  chat: (hospitalId: string, caseId: string) => ['inbound-case', hospitalId, caseId, 'chat'] as const,
  feedback: (hospitalId: string, caseId: string) => ['inbound-case', hospitalId, caseId, 'feedback'] as const,
  link: (caseId: string, uploadId: string) => ['media-link', caseId, uploadId] as const,
};

export function useCaseMedia(hospitalId: string, caseId: string) {
  return useQuery({
    queryKey: caseKeys.media(hospitalId, caseId),
    queryFn: () => api('inboundCaseMedia', { params: { id: hospitalId, caseId } }),
  });
}

export function useCaseChat(hospitalId: string, caseId: string) {
  return useQuery({
    queryKey: caseKeys.chat(hospitalId, caseId),
    queryFn: () => api('inboundCaseChat', { params: { id: hospitalId, caseId } }),
  });
}

export function useCaseFeedback(hospitalId: string, caseId: string) {
  return useQuery({
    queryKey: caseKeys.feedback(hospitalId, caseId),
    queryFn: () => api('inboundCaseFeedback', { params: { id: hospitalId, caseId } }),
  });
}

/** Renewed a minute before it expires, so a player that seeks later still has a valid link. */
const LINK_REFRESH_MS = MEDIA_ACCESS_TTL_MS - 60_000;

/**
 * A signed link to an upload's file for `<img>`, `<video>` and `<audio>` (they cannot send the token).
 * Only asked for when the file is ready (`enabled`).
 */
export function useMediaLink(caseId: string, uploadId: string | null, enabled = true) {
  return useQuery({
    queryKey: caseKeys.link(caseId, uploadId ?? ''),
    queryFn: () => api('mediaAccess', { params: { id: caseId, uploadId: uploadId ?? '' } }),
    enabled: enabled && uploadId !== null,
    staleTime: LINK_REFRESH_MS,
    refetchInterval: LINK_REFRESH_MS,
    // A link that failed (still converting, gone) is asked again when the upload list changes.
    retry: false,
  });
}

/** Adds a message to the cached chat once (a message can arrive live and in a re-read). */
export function mergeChatMessage(
  current: ChatMessagesResponse | undefined,
  message: ChatMessage,
): ChatMessagesResponse | undefined {
  if (!current) return current;
  const index = current.messages.findIndex((m) => m._id === message._id);
  const messages =
    index === -1 ? [...current.messages, message] : current.messages.map((m, i) => (i === index ? message : m));
  messages.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return { messages };
}

/** Moves a cached message to the state a receipt says. */
export function applyReceipt(
  current: ChatMessagesResponse | undefined,
  receipt: ChatReceipt,
): ChatMessagesResponse | undefined {
  if (!current) return current;
  return {
    messages: current.messages.map((m) =>
      m._id === receipt.messageId
        ? { ...m, state: receipt.state, deliveredAt: receipt.deliveredAt, readAt: receipt.readAt }
        : m,
    ),
  };
}

/**
 * Applies one message of `case:{caseId}` to the detail's caches, parsed with the contract's schema for
 * the case channel: a chat message or receipt, an upload (recorded or converted) and feedback are applied
 * or marked stale one by one. A message this console cannot read (an older or newer server's) marks all
 * of them stale. Exported for tests.
 */
export function handleCaseEvent(
  queryClient: QueryClient,
  hospitalId: string,
  caseId: string,
  event: RealtimeEvent,
  onCrewMessage?: (message: ChatMessage) => void,
): void {
  const chatKey = caseKeys.chat(hospitalId, caseId);
  const message = parseChannelMessage('case', event);
  if (message === null) {
    void queryClient.invalidateQueries({ queryKey: chatKey });
    void queryClient.invalidateQueries({ queryKey: caseKeys.feedback(hospitalId, caseId) });
    readMediaAgain(queryClient, hospitalId, caseId);
    return;
  }
  switch (message.type) {
    case 'chat.message':
      queryClient.setQueryData<ChatMessagesResponse>(chatKey, (current) => mergeChatMessage(current, message.data));
      if (message.data.source !== 'web_hospital') onCrewMessage?.(message.data);
      return;
    case 'chat.receipt':
      queryClient.setQueryData<ChatMessagesResponse>(chatKey, (current) => applyReceipt(current, message.data));
      return;
    case 'media.converted':
      return applyUpload(queryClient, hospitalId, caseId, message.data.upload);
    case 'case.updated': {
      const { event: changed, upload } = message.data;
      if (isMediaCaseEvent(changed)) {
        if (upload) applyUpload(queryClient, hospitalId, caseId, upload);
        else readMediaAgain(queryClient, hospitalId, caseId);
      }
      if (changed.type === 'caseFeedback') {
        void queryClient.invalidateQueries({ queryKey: caseKeys.feedback(hospitalId, caseId) });
      }
      return;
    }
  }
}

/** An upload recorded or converted: replaced in (or added to) the cached list, no read. */
function applyUpload(queryClient: QueryClient, hospitalId: string, caseId: string, upload: MediaUpload): void {
  queryClient.setQueryData<MediaListResponse>(caseKeys.media(hospitalId, caseId), (current) => {
    if (!current) return current;
    const at = current.uploads.findIndex((u) => u.id === upload.id);
    if (at >= 0) return { ...current, uploads: current.uploads.map((u, i) => (i === at ? upload : u)) };
    return {
      uploads: [...current.uploads, upload],
      // A call recording is listed (the ED's record of the call) but not in the crew's media counts (§3).
      mediaCounts: isCountedMediaType(upload.type)
        ? { ...current.mediaCounts, [upload.type]: current.mediaCounts[upload.type] + 1 }
        : current.mediaCounts,
    };
  });
  retryRefusedLinks(queryClient, caseId);
}

function readMediaAgain(queryClient: QueryClient, hospitalId: string, caseId: string): void {
  void queryClient.invalidateQueries({ queryKey: caseKeys.media(hospitalId, caseId) });
  retryRefusedLinks(queryClient, caseId);
}

/** A voice memo's link was refused while it was converting: ask again. */
function retryRefusedLinks(queryClient: QueryClient, caseId: string): void {
  void queryClient.invalidateQueries({
    queryKey: ['media-link', caseId],
    predicate: (q) => q.state.status === 'error',
  });
}

/** Keeps the media, chat and feedback of the open case live over `case:{caseId}`. */
export function useCaseChannel(
  hospitalId: string,
  caseId: string,
  onCrewMessage?: (message: ChatMessage) => void,
): void {
  const queryClient = useQueryClient();
  useChannel(`case:${caseId}`, {
    onEvent(event) {
      handleCaseEvent(queryClient, hospitalId, caseId, event, onCrewMessage);
    },
    onSubscribed() {
      void queryClient.invalidateQueries({ queryKey: ['inbound-case', hospitalId, caseId] });
    },
  });
}
