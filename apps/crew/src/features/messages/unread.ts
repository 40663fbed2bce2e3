import type { BroadcastMessage } from '@inbound/contract';

/** Newest first (spec §2), whatever order the server sent. */
export function newestFirst(messages: readonly BroadcastMessage[]): BroadcastMessage[] {
  return [...messages].sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
}

/** Messages newer than the last time the Message Center was opened; all of them if it never was. */
export function countUnread(messages: readonly BroadcastMessage[], lastOpened: string | null): number {
  const since = lastOpened === null ? Number.NEGATIVE_INFINITY : Date.parse(lastOpened);
  return messages.filter((message) => Date.parse(message.timestamp) > since).length;
}
