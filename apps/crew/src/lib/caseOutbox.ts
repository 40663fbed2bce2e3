/**
 * The app's one outbox (lib/outbox/README.md): every case change goes through it. Made once per tab and
 * started at app start by `main.tsx` (through a dynamic import, so neither the outbox nor the contract's
 * zod schemas are part of the login screen's code).
 *
 * Wiring, in one place:
 * - transport: `fetch` (XHR for multipart, for upload progress) with the session's token, read at every
 *   attempt (a fresh sign-in is used at once); media above 4 MB over tus, resumable (outbox/tusTransport.ts);
 * - `held-unauthorized` (a 401): the queue waits; with an active case the session's `needsAuthentication`
 *   is set (spec §4), without one the queue simply waits for the next sign-in, which calls `resume()`;
 * - `placeholder-resolved`: the local case takes the server's id, caseNumber, channelId, ownedBy, createdAt;
 * - at start, a stored placeholder case asks `resolvePlaceholder` (the page that got the answer may have
 *   died before saving it).
 */
import { HandoffWatchIssued } from '@inbound/contract';
import { reportFieldError } from './fieldErrors';
import { createAesGcmCodec, createFetchTransport, createOutbox, createTusTransport, isPlaceholderId } from './outbox';
import type { PlaceholderResolution } from './outbox';
import { openDB } from 'idb';
import { useSession } from './session';
import { checkStoragePersistence } from './storagePersistence';

const KEY_DB = 'inbound-outbox-key';
let outboxKey: Promise<CryptoKey> | null = null;

/**
 * The outbox's own non-extractable AES-GCM key (IndexedDB `inbound-outbox-key`). Not lib/storage's key:
 * logout deletes that one, and an automatic logout (shift end, expired token) must not make queued
 * changes unreadable — they wait for the next sign-in. Only the crew's confirmed logout clears the queue.
 */
function getOutboxKey(): Promise<CryptoKey> {
  outboxKey ??= (async () => {
    const db = await openDB(KEY_DB, 1, { upgrade: (upgradeDb) => upgradeDb.createObjectStore('keys') });
    const existing = (await db.get('keys', 'outbox')) as CryptoKey | undefined;
    if (existing) return existing;
    const created = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    await db.put('keys', created, 'outbox');
    return created;
  })();
  outboxKey.catch(() => {
    outboxKey = null;
  });
  return outboxKey;
}

const getToken = () => useSession.getState().jwt?.token ?? null;

export const caseOutbox = createOutbox({
  // Media above 4 MB resumably over tus; everything else (and small media, with upload progress) multipart/JSON.
  transport: createTusTransport({ getToken, fallback: createFetchTransport({ getToken }) }),
  // The same rule as lib/storage: sealed at rest in production builds, plain in development.
  codec: import.meta.env.PROD ? createAesGcmCodec(getOutboxKey) : null,
});

/**
 * Puts the server's answer into the local case, if the local case is still that placeholder, and into
 * what still names the placeholder after a close (the feedback prompt, the closed cases to wipe).
 */
export function applyPlaceholderResolution(resolution: PlaceholderResolution): void {
  const { case: local, caseFeedbackPending, closedCases } = useSession.getState();
  const { placeholderId, caseId, caseNumber } = resolution;
  if (caseFeedbackPending?.caseId === placeholderId) {
    useSession.setState({ caseFeedbackPending: { ...caseFeedbackPending, caseId } });
  }
  if (closedCases.some((closed) => closed.id === placeholderId)) {
    useSession.setState({
      closedCases: closedCases.map((closed) =>
        closed.id === placeholderId ? { ...closed, id: caseId, caseNumber } : closed,
      ),
    });
  }
  if (!local || local.id !== placeholderId) return;
  useSession.setState({
    case: {
      ...local,
      id: resolution.caseId,
      caseNumber: resolution.caseNumber,
      channelId: resolution.channelId,
      ownedBy: resolution.ownedBy,
      createdAt: resolution.createdAt,
    },
  });
}

/** The hand-over watch's answer: the token and the hospital's name are all the session keeps (decision 0038). */
export function applyHandoffWatchIssued(response: unknown): void {
  const parsed = HandoffWatchIssued.safeParse(response);
  if (!parsed.success) return;
  const { token, hospitalName, expiresAt } = parsed.data;
  useSession.setState({ handoffWatch: { token, hospitalName, expiresAt, handoff: null } });
}

caseOutbox.subscribe((event) => {
  if (event.type === 'placeholder-resolved') applyPlaceholderResolution(event);
  if (event.type === 'sent' && event.mutation.kind === 'handoffWatch') applyHandoffWatchIssued(event.response);
  // The server refused a change: its status and the item's key and case only, never the change itself.
  if (event.type === 'rejected') {
    reportFieldError('outbox_refused', {
      code: event.mutation.status,
      ids: { item: event.mutation.key, case: event.mutation.caseId },
    });
    // A refused hand-over watch is not something the crew entered, and kept among the rejected it would
    // hold the closed case (patient data and all) on the device until someone discarded it by hand:
    // it gives way, and Start simply shows no hand-over line.
    if (event.mutation.kind === 'handoffWatch') void caseOutbox.discardRejected(event.mutation.key);
  }
  if (event.type === 'held-unauthorized' && useSession.getState().caseActive) {
    useSession.setState({ needsAuthentication: true });
  }
});

let started: Promise<void> | null = null;

/**
 * Starts sending (once), catches up on a placeholder answered by an earlier page, and asks for
 * persistent storage (a refusal is shown on Start: the browser may then evict the queue under storage
 * pressure).
 */
export function startCaseOutbox(): Promise<void> {
  started ??= (async () => {
    await caseOutbox.start();
    const local = useSession.getState().case;
    if (local && isPlaceholderId(local.id)) {
      const resolution = await caseOutbox.resolvePlaceholder(local.id);
      if (resolution) applyPlaceholderResolution(resolution);
    }
    await checkStoragePersistence();
  })();
  return started;
}
