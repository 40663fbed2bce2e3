/**
 * A case's conversation from the server: `GET .../chat-messages` once, then live from the case's one
 * subscription (features/case/caseChannel.ts: 'chat.message' adds or replaces a message, 'chat.receipt'
 * moves one of the crew's to delivered or read). A subscription that may have missed something asks the
 * list again, so whatever came while the socket was down is there.
 * Messages from the hospital get their receipts back: delivered when this app has them, read when the
 * CHAT tab shows them.
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, ChatReceipt } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { isPlaceholderId } from '../../lib/outbox';
import { queryClient as appQueryClient } from '../../lib/queryClient';
import { applyReceipt, upsertMessage } from './chatModel';
import { chatKeys } from './outgoing';

export function useChatMessages(caseId: string | null, meId: string | null): ChatMessage[] {
  const queryClient = useQueryClient();
  const live = caseId !== null && !isPlaceholderId(caseId);
  const query = useQuery({
    queryKey: chatKeys.messages(caseId ?? ''),
    queryFn: async ({ signal }) => {
      const fetched = (await api.call('chatMessages', { params: { id: caseId ?? '' }, signal })).messages;
      // A live message or receipt that came while this request was out must not be undone by it.
      const cached = queryClient.getQueryData<ChatMessage[]>(chatKeys.messages(caseId ?? '')) ?? [];
      return cached.reduce(upsertMessage, fetched);
    },
    enabled: live,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const list = query.data;
  useEffect(() => {
    if (!list || !meId || !caseId) return;
    for (const message of list) {
      if (message.senderId !== meId && message.state === 'sent') sendReceipt(caseId, message._id, 'delivered');
    }
  }, [list, meId, caseId]);

  return list ?? [];
}

/** The CHAT tab is showing these: tell the hospital they were read. */
export function markRead(caseId: string, list: readonly ChatMessage[], meId: string): void {
  for (const message of list) {
    if (message.senderId !== meId && message.state !== 'read') sendReceipt(caseId, message._id, 'read');
  }
}

/** A chat message of the case channel (parsed by the shared realtime client): added or replaced. */
export function applyChatMessage(caseId: string, message: ChatMessage): void {
  appQueryClient.setQueryData<ChatMessage[]>(chatKeys.messages(caseId), (list = []) => upsertMessage(list, message));
}

/** A receipt of the case channel: one of the crew's messages was delivered or read. */
export function applyChatReceipt(caseId: string, receipt: ChatReceipt): void {
  appQueryClient.setQueryData<ChatMessage[]>(chatKeys.messages(caseId), (list = []) => applyReceipt(list, receipt));
}

/** Each receipt once per page: they are a courtesy to the other side, not something to retry forever. */
const receiptsSent = new Set<string>();

function sendReceipt(caseId: string, messageId: string, kind: 'delivered' | 'read'): void {
  const id = `${kind}:${messageId}`;
  if (receiptsSent.has(id)) return;
  receiptsSent.add(id);
  if (kind === 'read') receiptsSent.add(`delivered:${messageId}`);
  const route = kind === 'read' ? 'chatMessageRead' : 'chatMessageDelivered';
  api
    .call(route, { params: { id: caseId, messageId } })
    .then((updated) =>
      appQueryClient.setQueryData<ChatMessage[]>(chatKeys.messages(caseId), (list = []) =>
        upsertMessage(list, updated),
      ),
    )
    .catch(() => {
      // Offline or refused: the receipt is lost, the message is not; the next page sends it again.
      receiptsSent.delete(id);
    });
}
