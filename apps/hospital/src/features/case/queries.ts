/**
 * What the case detail reads beside the case itself — its uploads, its chat, the crews' feedback — and
 * how it stays live: the `case:{id}` channel carries `chat.message`, `chat.receipt` and `case.updated`
 * (an upload recorded, or with `event: null` a conversion finished). Every (re)subscription reads all
 * three again rather than trusting that nothing was missed while the socket was down.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  CASE_CHANNEL_EVENTS,
  parseChannelMessage,
  ChatMessage,
  ChatReceipt,
  MEDIA_ACCESS_TTL_MS,
  MEDIA_TYPES,
  type ChatMessagesResponse,
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

const MEDIA_EVENTS = new Set<string>(MEDIA_TYPES);

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

/** Applies one event of `case:{caseId}` to the detail's caches. Exported for tests. */
export function handleCaseEvent(
  queryClient: QueryClient,
  hospitalId: string,
  caseId: string,
  event: RealtimeEvent,
  onCrewMessage?: (message: ChatMessage) => void,
): void {
  const chatKey = caseKeys.chat(hospitalId, caseId);
  switch (event.type) {
    case 'chat.message': {
      const parsed = ChatMessage.safeParse(event.data);
      if (!parsed.success) {
        void queryClient.invalidateQueries({ queryKey: chatKey });
        return;
      }
      queryClient.setQueryData<ChatMessagesResponse>(chatKey, (current) => mergeChatMessage(current, parsed.data));
      if (parsed.data.source !== 'web_hospital') onCrewMessage?.(parsed.data);
      return;
    }
    case 'chat.receipt': {
      const parsed = ChatReceipt.safeParse(event.data);
      if (parsed.success) {
        queryClient.setQueryData<ChatMessagesResponse>(chatKey, (current) => applyReceipt(current, parsed.data));
      }
      return;
    }
    case CASE_CHANNEL_EVENTS.mediaConverted:
    case CASE_CHANNEL_EVENTS.caseUpdated: {
      const message = parseChannelMessage('case', event);
      const type = message?.type === CASE_CHANNEL_EVENTS.caseUpdated ? message.data.event.type : null;
      // A finished conversion, or an upload recorded: re-read the uploads.
      if (message?.type === CASE_CHANNEL_EVENTS.mediaConverted || (type !== null && MEDIA_EVENTS.has(type))) {
        void queryClient.invalidateQueries({ queryKey: caseKeys.media(hospitalId, caseId) });
        // A voice memo's link was refused while it was converting: ask again.
        void queryClient.invalidateQueries({
          queryKey: ['media-link', caseId],
          predicate: (q) => q.state.status === 'error',
        });
      }
      if (type === 'caseFeedback') {
        void queryClient.invalidateQueries({ queryKey: caseKeys.feedback(hospitalId, caseId) });
      }
      return;
    }
    default:
      return;
  }
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
