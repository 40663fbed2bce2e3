/**
 * The conversation as the CHAT tab shows it (pure): the server's messages plus the crew's own that are
 * still on the way (the outbox holds them), each of the crew's with its state, and the unread count.
 */
import type { ChatMessage, ChatReceipt } from '@inbound/contract';

/** A message the crew wrote on this device that the server has not confirmed yet. */
export interface OutgoingChat {
  /** The outbox's Idempotency-Key of its POST. */
  key: string;
  caseId: string;
  content: string;
  clientCreatedAt: string;
  /** The server refused it (its message); it stays, with Retry / Discard, until the crew decides. */
  error: string | null;
}

/** The states of a message the crew sent (issue 4: "did they get it?"). */
export type OwnState = 'waiting' | 'failed' | 'sent' | 'delivered' | 'read';

/** Shown beside the icon and read by screen readers. */
export const OWN_STATE_TEXT: Record<OwnState, string> = {
  waiting: 'Waiting to send',
  failed: 'Not sent',
  sent: 'Sent',
  delivered: 'Delivered to the hospital',
  read: 'Read',
};

export interface ConversationItem {
  id: string;
  content: string;
  /** ISO instant to show and sort by. */
  at: string;
  mine: boolean;
  senderName: string;
  senderOrganization: string;
  type: ChatMessage['type'];
  /** VOICE_MEMO: the upload to play and its length in seconds. */
  mediaId: string | null;
  length: number | null;
  /** Only for the crew's own messages. */
  state: OwnState | null;
  error: string | null;
  /** Outbox key of a message still on this device. */
  outboxKey: string | null;
}

/** Server order (createdAt), then what is still on this device, in the order it was written. */
export function buildConversation(
  server: readonly ChatMessage[],
  outgoing: readonly OutgoingChat[],
  me: { id: string; displayName: string; organization: string },
): ConversationItem[] {
  const confirmed = new Set(
    server.filter((message) => message.senderId === me.id).map((message) => message.clientCreatedAt),
  );
  const items: ConversationItem[] = [...server]
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
    .map((message) => ({
      id: message._id,
      content: message.content,
      at: message.createdAt,
      mine: message.senderId === me.id,
      senderName: message.senderName,
      senderOrganization: message.senderOrganization,
      type: message.type,
      mediaId: message.mediaId,
      length: message.length,
      state: message.senderId === me.id ? message.state : null,
      error: null,
      outboxKey: null,
    }));
  for (const entry of [...outgoing].sort((a, b) => a.clientCreatedAt.localeCompare(b.clientCreatedAt))) {
    // The socket can bring our own message before the outbox hears its answer: show it once.
    if (confirmed.has(entry.clientCreatedAt)) continue;
    items.push({
      id: `outbox-${entry.key}`,
      content: entry.content,
      at: entry.clientCreatedAt,
      mine: true,
      senderName: me.displayName,
      senderOrganization: me.organization,
      type: 'CHAT',
      mediaId: null,
      length: null,
      state: entry.error === null ? 'waiting' : 'failed',
      error: entry.error,
      outboxKey: entry.key,
    });
  }
  return items;
}

/** Adds or replaces one message (by id); a receipt never moves a state backwards. */
export function upsertMessage(list: readonly ChatMessage[], message: ChatMessage): ChatMessage[] {
  const index = list.findIndex((item) => item._id === message._id);
  if (index === -1) return [...list, message];
  const next = [...list];
  const existing = list[index]!;
  next[index] =
    STATE_RANK[message.state] >= STATE_RANK[existing.state] ? message : { ...message, ...pickState(existing) };
  return next;
}

export function applyReceipt(list: readonly ChatMessage[], receipt: ChatReceipt): ChatMessage[] {
  return list.map((message) =>
    message._id === receipt.messageId && STATE_RANK[receipt.state] >= STATE_RANK[message.state]
      ? { ...message, state: receipt.state, deliveredAt: receipt.deliveredAt, readAt: receipt.readAt }
      : message,
  );
}

const STATE_RANK: Record<ChatMessage['state'], number> = { sent: 0, delivered: 1, read: 2 };

function pickState(message: ChatMessage) {
  return { state: message.state, deliveredAt: message.deliveredAt, readAt: message.readAt };
}

/** Messages from the other side stored after the crew last looked at the CHAT tab (all, if never). */
export function countUnread(server: readonly ChatMessage[], meId: string, lastSeen: string | null): number {
  const since = lastSeen === null ? Number.NEGATIVE_INFINITY : Date.parse(lastSeen);
  return server.filter((message) => message.senderId !== meId && Date.parse(message.createdAt) > since).length;
}

/** §5: whitespace-only messages are not sent. */
export function isSendable(text: string): boolean {
  return text.trim() !== '';
}
