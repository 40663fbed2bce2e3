/**
 * The crew's chat messages on their way (spec §2 CHAT tab; issue 4 "kept through the outbox while
 * offline"). Sending puts the message in the case outbox (`caseMutations.chat`, with its Idempotency-Key)
 * and here, so the tab shows it at once as "Waiting to send". The outbox's answer replaces it with the
 * server's message (state sent, then delivered and read by receipts); a refusal keeps it as "Not sent"
 * with Retry / Discard. The texts are patient-related, so they are kept in lib/storage (sealed in
 * production), and read back at start: a reload while offline still shows what is waiting.
 */
import { create } from 'zustand';
import { CHAT_SOURCE, ChatMessage, messages, type PostChatMessageBody } from '@inbound/contract';
import { caseOutbox } from '../../lib/caseOutbox';
import { caseMutations } from '../../lib/outbox';
import { queryClient } from '../../lib/queryClient';
import { useSession } from '../../lib/session';
import { localData } from '../../lib/storage';
import { whenChangesQueued } from '../case/mutations';
import { showAlert } from '../../lib/alerts';
import { isSendable, upsertMessage, type OutgoingChat } from './chatModel';

const STORAGE_KEY = 'chatOutgoing';

export const chatKeys = { messages: (caseId: string) => ['chat', caseId] as const };

interface OutgoingState {
  entries: OutgoingChat[];
}

export const useOutgoingChat = create<OutgoingState>(() => ({ entries: [] }));

function setEntries(update: (entries: OutgoingChat[]) => OutgoingChat[]): void {
  const entries = update(useOutgoingChat.getState().entries);
  useOutgoingChat.setState({ entries });
  localData.set(STORAGE_KEY, entries.length > 0 ? entries : undefined).catch((error: unknown) => {
    console.error('waiting chat messages could not be saved on this device', error);
  });
}

/**
 * Sends a chat message of the current case: whitespace-only never (§5). Resolves once it is stored on
 * the device (the outbox sends it when it can).
 */
export async function sendChatMessage(text: string): Promise<boolean> {
  const { case: current, selectedTeam } = useSession.getState();
  if (!current || !isSendable(text)) return false;
  const now = new Date().toISOString();
  const body: PostChatMessageBody = {
    clientCreatedAt: now,
    deviceId: CHAT_SOURCE,
    message: text.trim(),
    timestamp: now,
    source: CHAT_SOURCE,
    senderOrganization: selectedTeam?.name ?? '',
    type: 'CHAT',
  };
  const input = caseMutations.chat(current.id, body);
  // After anything tapped before it (e.g. the create of a new case), so the outbox keeps that order.
  await whenChangesQueued();
  try {
    const info = await caseOutbox.enqueue(input);
    // A fast network can answer before we get here: then the server's message is already shown.
    if (answered.delete(info.key)) return true;
    const entry: OutgoingChat = {
      key: info.key,
      caseId: info.caseId,
      content: body.message ?? '',
      clientCreatedAt: now,
      error: null,
    };
    setEntries((entries) => [...entries, entry]);
    return true;
  } catch (error) {
    console.error('a chat message could not be queued', error);
    showAlert(messages.changeNotSaved, messages.warningTitle);
    return false;
  }
}

/** Keys the outbox answered before `sendChatMessage` recorded them. */
const answered = new Set<string>();

export async function retryChatMessage(key: string): Promise<void> {
  setEntries((entries) => entries.map((entry) => (entry.key === key ? { ...entry, error: null } : entry)));
  await caseOutbox.retryRejected(key);
}

export async function discardChatMessage(key: string): Promise<void> {
  await caseOutbox.discardRejected(key);
  setEntries((entries) => entries.filter((entry) => entry.key !== key));
}

caseOutbox.subscribe((event) => {
  if (event.type === 'sent' && event.mutation.kind === 'chat') {
    const parsed = ChatMessage.safeParse(event.response);
    if (parsed.success) {
      queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(parsed.data.caseId), (list = []) =>
        upsertMessage(list, parsed.data),
      );
    } else {
      void queryClient.invalidateQueries({ queryKey: chatKeys.messages(event.mutation.caseId) });
    }
    const { key } = event.mutation;
    const known = useOutgoingChat.getState().entries.some((entry) => entry.key === key);
    if (!known) answered.add(key);
    // After the query cache has told the screen (it notifies on the next tick): no frame without it.
    else setTimeout(() => setEntries((entries) => entries.filter((entry) => entry.key !== key)), 0);
  }
  if (event.type === 'rejected' && event.mutation.kind === 'chat') {
    const { key, message } = event.mutation;
    setEntries((entries) => entries.map((entry) => (entry.key === key ? { ...entry, error: message } : entry)));
  }
  if (event.type === 'placeholder-resolved') {
    setEntries((entries) =>
      entries.map((entry) => (entry.caseId === event.placeholderId ? { ...entry, caseId: event.caseId } : entry)),
    );
  }
  if (event.type === 'cleared') setEntries(() => []);
});

let loaded: Promise<void> | null = null;

/**
 * Reads the waiting messages back (once per page) and keeps those the outbox still holds: one that was
 * delivered while the page was away comes back with the server's list.
 */
export function loadOutgoingChat(): Promise<void> {
  loaded ??= (async () => {
    try {
      const stored = ((await localData.get(STORAGE_KEY)) ?? []) as OutgoingChat[];
      if (!Array.isArray(stored) || stored.length === 0) return;
      const [pending, rejected] = await Promise.all([caseOutbox.listPending(), caseOutbox.listRejected()]);
      const live = new Set([...pending.map((item) => item.key), ...rejected.map((item) => item.key)]);
      const failed = new Map(rejected.map((item) => [item.key, item] as const));
      const keep = stored
        .filter((entry) => live.has(entry.key))
        .map((entry) => {
          const refusal = failed.get(entry.key);
          return refusal ? { ...entry, error: refusal.message } : entry;
        });
      setEntries((entries) => [...keep.filter((entry) => !entries.some((e) => e.key === entry.key)), ...entries]);
    } catch (error) {
      console.error('waiting chat messages could not be read back', error);
    }
  })();
  return loaded;
}
