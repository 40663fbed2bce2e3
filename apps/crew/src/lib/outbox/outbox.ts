/**
 * The crew app's persistent outbox: every change a crew makes to a case goes through here, and nothing
 * that went in is ever dropped — not by a reload, a crash, an hour offline, a server restart or an
 * expired token. "Offline and no loss are the core, not a feature."
 *
 * ## Design, and why
 *
 * - **A mutation** is one HTTP call to make: `{ key, caseId, kind, method, path, body | media,
 *   createdAt, attempts, nextAttemptAt, lastError }`. `key` is a `crypto.randomUUID()` made once, at
 *   enqueue, and sent as `Idempotency-Key` on every attempt, after every reload, from every tab: the
 *   server answers a repeat with its first answer and writes nothing, so sending twice is always safe
 *   and "sent but the answer was lost" needs no special case.
 * - **Durable before acknowledged.** `enqueue()` resolves only when the IndexedDB transaction has
 *   completed (strict durability), so the UI may then say "saved on this device". Media bytes are kept in
 *   IndexedDB too (see `outbox.store.ts`), encrypted with the body when a codec is given (`codec.ts`).
 * - **Strict order per case, independent cases.** Mutations are numbered by an auto-increment `seq`.
 *   Only the oldest pending mutation of a case (its head) may be in flight, so a later change never
 *   overtakes an earlier one (a tag removal never lands before its add; the last age typed wins). A head
 *   that keeps failing holds back its own case only; other cases go on.
 * - **Outcomes** (`backoff.ts`): 2xx → removed and announced with the response; no answer / 5xx / 408 /
 *   429 → kept, retried with exponential back-off and jitter capped at 30 s (media every 2 s, spec §9);
 *   401 → the whole queue is held, nothing dropped, until `resume()` after the crew signs in again (the
 *   change is fine, the token is not); any other 4xx → the change cannot succeed as it is: moved to
 *   `rejected` with the server's message and announced, never silently dropped, and the case goes on.
 * - **Placeholder ids.** A case started offline is `placeholder-{ts}`. Nothing of it is sent before its
 *   `createCase` succeeds (its create is always sent first). When it does, one transaction stores the
 *   mapping and rewrites every queued mutation of the placeholder (case id and path) to the real id;
 *   listeners hear `placeholder-resolved` with the new id and case number. A change queued against the
 *   placeholder later (the UI had not caught up) is rewritten on the way in.
 * - **When it sends.** On `start()` (which also resumes whatever a previous page left — a mutation that
 *   was in flight when the page died is simply sent again, same key), on every enqueue, on `online`, on
 *   `visibilitychange` to visible, on `flush()`, and on a timer set to the next retry. `online`,
 *   `visible` and `flush()` ignore back-off: coverage just came back, waiting 30 s would be wrong.
 *   `navigator.onLine` is only a hint (it is wrong both ways on real devices): a request is the only real
 *   probe, offline it fails at once without touching the radio, and a failed request marks us offline.
 * - **One sender.** One drain loop per tab (passes never overlap), and across tabs the Web Locks API
 *   (`navigator.locks.request('inbound-outbox')`) so two tabs never send the same mutation at the same
 *   time; each pass re-reads the database under the lock, so what another tab delivered is gone. Without
 *   Web Locks, only the in-tab guarantee holds (the idempotency key still makes a double send harmless).
 *   A BroadcastChannel tells other tabs that the queue changed, so their counts stay true.
 * - **Observable.** `subscribe()` for events, `snapshot()` (immutable, stable identity) for counts per
 *   case, the oldest pending change, rejected ones and whether the queue is held; `useOutboxStatus()`
 *   wraps it for React.
 * - **Testable.** Transport, clock, timers, random, locks and the event source are injected.
 */
import { CreateCaseResponse, ErrorBody, IDEMPOTENCY_KEY_HEADER, PLACEHOLDER_ID_PREFIX } from '@inbound/contract';
import { classifyStatus, retryDelayMs } from './backoff';
import * as store from './outbox.store';
import type { OutboxDb, PendingRecord, StoredBody, StoredBytes } from './outbox.store';
import type {
  CasePendingStatus,
  MultipartBody,
  MutationInfo,
  MutationInput,
  OutboxClock,
  OutboxCodec,
  OutboxEvent,
  OutboxListener,
  OutboxLockManager,
  OutboxRequest,
  OutboxResponse,
  OutboxSnapshot,
  OutboxTimers,
  OutboxTransport,
  PlaceholderResolution,
  RejectedMutation,
} from './types';

export const OUTBOX_DB_NAME = 'inbound-outbox';
export const OUTBOX_LOCK_NAME = 'inbound-outbox';
/**
 * A JSON change with no answer after this long is treated as lost (and sent again later, same key). Short:
 * these requests are small, and when coverage comes back on a connection that silently died, the case's
 * queue (strictly in order) waits this long before the retry on a fresh connection.
 */
export const REQUEST_TIMEOUT_MS = 15_000;
/** After the database itself failed a pass (quota, a dropped connection), try again this much later. */
export const FAILED_PASS_RETRY_MS = 10_000;
/** Uploads get longer: a video over a weak signal is slow, not lost. */
export const MEDIA_REQUEST_TIMEOUT_MS = 10 * 60_000;

export interface OutboxOptions {
  /** Makes the HTTP call; adds Authorization. See `createFetchTransport`. */
  transport: OutboxTransport;
  dbName?: string;
  lockName?: string;
  /** Cross-tab locks; default `navigator.locks` when the browser has it, `null` for in-tab only. */
  locks?: OutboxLockManager | null;
  /** Encrypts bodies and media at rest; `null` keeps them in clear (development, tests). */
  codec?: OutboxCodec | null;
  clock?: OutboxClock;
  timers?: OutboxTimers;
  /** In [0, 1), for the jitter. */
  random?: () => number;
  newKey?: () => string;
  /** Where `online`, `offline` and `visibilitychange` come from; default `window`, `null` for none. */
  events?: EventTarget | null;
  isBrowserOnline?: () => boolean;
  isVisible?: () => boolean;
  /** Other tabs are told of changes on this channel; default the database name, `null` for none. */
  broadcastChannel?: string | null;
  requestTimeoutMs?: number;
  mediaRequestTimeoutMs?: number;
}

export interface Outbox {
  /** Opens the database, listens to the browser, and sends whatever is waiting (also from a previous page). */
  start(): Promise<void>;
  /** Stops sending and listening; aborts requests in flight (they stay queued and go again next start). */
  stop(): Promise<void>;
  /** Queues a change; resolves once it is durably stored on this device. */
  enqueue(input: MutationInput): Promise<MutationInfo>;
  /**
   * Queues changes one after the other (one tap's: a swap's remove and add), all or none, in one
   * transaction; resolves once they are durably stored.
   */
  enqueueAll(inputs: readonly MutationInput[]): Promise<MutationInfo[]>;
  /** Sends now, ignoring back-off; resolves when that pass is over. */
  flush(): Promise<void>;
  /** Resolves once no pass is running and the snapshot is up to date (tests; logout before `clear()`). */
  whenIdle(): Promise<void>;
  /** Releases the hold after a 401, once the crew has signed in again, and sends at once. */
  resume(): Promise<void>;
  subscribe(listener: OutboxListener): () => void;
  /** Called whenever `snapshot()` changes (for `useSyncExternalStore`). */
  subscribeSnapshot(listener: () => void): () => void;
  snapshot(): OutboxSnapshot;
  /** Every change not on the server yet — pending and rejected. Logout warns when it is not 0. */
  pendingCount(): Promise<number>;
  /** What is still waiting, oldest first; of one case, or all. */
  listPending(caseId?: string): Promise<MutationInfo[]>;
  listRejected(): Promise<RejectedMutation[]>;
  /**
   * The real case behind a placeholder id, once its create was accepted — by this page, an earlier one
   * that died before the app saved the answer, or another tab. Null while it is not (yet) created.
   */
  resolvePlaceholder(placeholderId: string): Promise<PlaceholderResolution | null>;
  /** Puts a rejected change back in the queue at its old place (e.g. after the crew fixed the cause). */
  retryRejected(key: string): Promise<void>;
  /** Deletes a rejected change — only on the crew's explicit decision. */
  discardRejected(key: string): Promise<void>;
  /** Deletes everything queued, for logout after the crew confirmed. */
  clear(): Promise<void>;
  /**
   * Drops what the outbox still knows of a case (its placeholder → real id record) once nothing of it is
   * pending or rejected; false, and nothing deleted, while something is. For wiping a closed case.
   */
  forgetCase(caseId: string): Promise<boolean>;
}

const EMPTY_SNAPSHOT: OutboxSnapshot = Object.freeze({
  ready: false,
  pendingTotal: 0,
  byCase: Object.freeze({}),
  oldestPendingAt: null,
  rejected: Object.freeze([]),
  held: false,
  online: true,
});

export function isPlaceholderId(caseId: string): boolean {
  return caseId.startsWith(PLACEHOLDER_ID_PREFIX);
}

/** Milliseconds the oldest pending change has waited, or null when nothing waits. */
export function pendingAgeMs(snapshot: OutboxSnapshot, now: number): number | null {
  return snapshot.oldestPendingAt === null ? null : Math.max(0, now - snapshot.oldestPendingAt);
}

/** A stored change that cannot be turned back into a request. */
class UnreadableChangeError extends Error {}

async function unreadable<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw new UnreadableChangeError(describe(error));
  }
}

/** After one send: go on with the case's next change (under this id), or stop this case for this pass. */
type SendResult = { outcome: 'next'; caseId: string } | { outcome: 'stop' };

export function createOutbox(options: OutboxOptions): Outbox {
  const {
    transport,
    dbName = OUTBOX_DB_NAME,
    lockName = OUTBOX_LOCK_NAME,
    codec = null,
    clock = { now: () => Date.now() },
    timers = {
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
    },
    random = Math.random,
    newKey = () => crypto.randomUUID(),
    requestTimeoutMs = REQUEST_TIMEOUT_MS,
    mediaRequestTimeoutMs = MEDIA_REQUEST_TIMEOUT_MS,
  } = options;
  const locks = options.locks === undefined ? defaultLocks() : options.locks;
  const events = options.events === undefined ? (typeof window === 'undefined' ? null : window) : options.events;
  const isBrowserOnline =
    options.isBrowserOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  const isVisible =
    options.isVisible ?? (() => (typeof document === 'undefined' ? true : document.visibilityState === 'visible'));
  const channelName = options.broadcastChannel === undefined ? dbName : options.broadcastChannel;

  const listeners = new Set<OutboxListener>();
  const snapshotListeners = new Set<() => void>();
  const inFlight = new Set<AbortController>();

  let dbPromise: Promise<OutboxDb> | null = null;
  let started = false;
  let held = false;
  let browserOnline = true;
  let reachable = true;
  let current: OutboxSnapshot = EMPTY_SNAPSHOT;
  let passes: Promise<void> | null = null;
  let rerun = false;
  let forceNext = false;
  let nextWakeAt: number | null = null;
  let wakeTimer: unknown = null;
  let channel: BroadcastChannel | null = null;
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  /** The last enqueue's store step: each enqueue stores after the one called before it (see enqueue). */
  let enqueueTurn: Promise<unknown> = Promise.resolve();

  // ---------- database ----------

  function getDb(): Promise<OutboxDb> {
    if (!dbPromise) {
      const opening = store.openOutboxDb(dbName, () => {
        if (dbPromise === opening) dbPromise = null;
      });
      dbPromise = opening;
      opening.catch(() => {
        if (dbPromise === opening) dbPromise = null;
      });
    }
    return dbPromise;
  }

  // ---------- notifications ----------

  function emit(event: OutboxEvent): void {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        // A broken listener must not stop delivery.
        console.error('outbox listener failed', error);
      }
    }
  }

  function setSnapshot(next: OutboxSnapshot): void {
    if (sameSnapshot(current, next)) return;
    current = Object.freeze(next);
    for (const listener of snapshotListeners) listener();
  }

  function setFlags(): void {
    setSnapshot({ ...current, held, online: browserOnline && reachable });
  }

  /** Re-reads counts from the database (it is shared with other tabs); calls coalesce. */
  function refreshSnapshot(): Promise<void> {
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      try {
        do {
          refreshAgain = false;
          const db = await getDb();
          const [pending, rejected] = await Promise.all([store.listPending(db), store.listRejected(db)]);
          setSnapshot(buildSnapshot(pending, rejected.map(store.toRejectedInfo), held, browserOnline && reachable));
        } while (refreshAgain);
      } catch (error) {
        console.error('outbox snapshot failed', error);
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  function announceChange(): void {
    void refreshSnapshot();
    if (!channelName || typeof BroadcastChannel === 'undefined') return;
    // A page that has not started (or has stopped) still tells the others it queued something.
    const sender = channel ?? new BroadcastChannel(channelName);
    sender.postMessage('changed');
    if (sender !== channel) sender.close();
  }

  /** A request got an answer (true) or none (false). An answer proves we are online, whatever the browser said. */
  function setReachable(value: boolean): void {
    const before = browserOnline && reachable;
    reachable = value;
    if (value) browserOnline = true;
    if (before === (browserOnline && reachable)) return;
    emit({ type: 'connectivity', online: browserOnline && reachable });
    setFlags();
  }

  // ---------- the drain loop ----------

  /** Starts a pass (or asks the running one to go again); resolves when the passes are over. */
  function kick(force: boolean): Promise<void> {
    if (!started) return Promise.resolve();
    if (force) forceNext = true;
    if (passes) {
      rerun = true;
      return passes;
    }
    const running = runPasses();
    passes = running;
    return running;
  }

  async function runPasses(): Promise<void> {
    try {
      do {
        rerun = false;
        const force = forceNext;
        forceNext = false;
        if (locks) await locks.request(lockName, () => pass(force));
        else await pass(force);
      } while (rerun && started);
    } catch (error) {
      // IndexedDB failed under us (quota, a dropped connection). Nothing is lost: try again later.
      console.error('outbox pass failed', error);
      nextWakeAt = clock.now() + FAILED_PASS_RETRY_MS;
    } finally {
      passes = null;
      schedule();
    }
  }

  function schedule(): void {
    if (wakeTimer !== null) timers.clearTimeout(wakeTimer);
    wakeTimer = null;
    if (!started || held || nextWakeAt === null) return;
    wakeTimer = timers.setTimeout(
      () => {
        wakeTimer = null;
        void kick(false);
      },
      Math.max(0, nextWakeAt - clock.now()),
    );
  }

  /** One pass: every case whose head is due sends, cases side by side, each in order. */
  async function pass(force: boolean): Promise<void> {
    if (!started) return;
    const db = await getDb();
    const heads = headsOf(await store.listPending(db));
    const now = clock.now();
    await Promise.all(
      heads.filter((head) => isSendable(head) && (force || head.nextAttemptAt <= now)).map((head) => drainCase(head)),
    );
    // Wake for the earliest retry still waiting (a later pass re-reads everything anyway).
    const after = headsOf(await store.listPending(db)).filter(isSendable);
    nextWakeAt = after.length === 0 ? null : Math.min(...after.map((head) => head.nextAttemptAt));
    await refreshSnapshot();
  }

  async function drainCase(head: PendingRecord): Promise<void> {
    let next: PendingRecord | undefined = head;
    while (next && started && !held) {
      const result = await send(next);
      if (result.outcome !== 'next') return;
      const db = await getDb();
      next = await store.firstOfCase(db, result.caseId);
      if (next && (!isSendable(next) || next.nextAttemptAt > clock.now())) return;
    }
  }

  async function send(record: PendingRecord): Promise<SendResult> {
    const controller = new AbortController();
    let request: OutboxRequest;
    try {
      request = await buildRequest(record, controller.signal);
    } catch (error) {
      // The stored change cannot be read back (its key is gone, its file missing): as it is, it can
      // never be sent. Kept among the rejected, and shown. Anything else (IndexedDB) fails the pass,
      // which is tried again later.
      if (!(error instanceof UnreadableChangeError)) throw error;
      return rejectRecord(record, 0, `This change cannot be read on this device (${error.message}).`);
    }

    if (request.multipart) {
      // The crew sees the upload start at once, then its bytes go (the transport reports them).
      const info = store.toInfo(record);
      const total = request.multipart.file.blob.size;
      let last = 0;
      request.onProgress = (loaded, size) => {
        if (controller.signal.aborted || loaded === last) return;
        last = loaded;
        emit({ type: 'progress', mutation: info, loaded: Math.min(loaded, size), total: size });
      };
      emit({ type: 'progress', mutation: info, loaded: 0, total });
    }
    inFlight.add(controller);
    const timeout = timers.setTimeout(
      () => controller.abort(),
      record.kind === 'media' ? mediaRequestTimeoutMs : requestTimeoutMs,
    );
    let response: OutboxResponse | null = null;
    let failure = '';
    try {
      response = await untilAborted(transport(request), controller.signal);
      if (response.status === 0) {
        response = null;
        failure = 'no answer';
      }
    } catch (error) {
      if (!started) return { outcome: 'stop' };
      failure = controller.signal.aborted ? 'timed out' : describe(error);
    } finally {
      timers.clearTimeout(timeout);
      inFlight.delete(controller);
    }
    if (!started) return { outcome: 'stop' };

    if (response === null) {
      setReachable(false);
      await retryLater(record, failure);
      return { outcome: 'stop' };
    }
    setReachable(true);
    switch (classifyStatus(response.status)) {
      case 'delivered':
        return deliverRecord(record, response);
      case 'hold':
        await holdFor(record);
        return { outcome: 'stop' };
      case 'reject':
        return rejectRecord(record, response.status, serverMessage(response));
      case 'retry':
        await retryLater(record, `HTTP ${response.status}`, response.retryAfterMs);
        return { outcome: 'stop' };
    }
  }

  async function deliverRecord(record: PendingRecord, response: OutboxResponse): Promise<SendResult> {
    let resolution: PlaceholderResolution | null = null;
    if (record.kind === 'createCase' && isPlaceholderId(record.caseId)) {
      const parsed = CreateCaseResponse.safeParse(response.body);
      if (!parsed.success)
        return rejectRecord(record, response.status, 'The server answered the new case with something unreadable.');
      const { id, caseNumber, channelId, ownedBy, createdAt } = parsed.data;
      resolution = { placeholderId: record.caseId, caseId: id, caseNumber, channelId, ownedBy, createdAt };
    }
    const db = await getDb();
    await store.deliver(db, record.seq, record.key, resolution, clock.now());
    emit({ type: 'sent', mutation: store.toInfo(record), status: response.status, response: response.body });
    if (resolution) emit({ type: 'placeholder-resolved', ...resolution, response: response.body });
    announceChange();
    return { outcome: 'next', caseId: resolution ? resolution.caseId : record.caseId };
  }

  async function retryLater(record: PendingRecord, error: string, retryAfterMs?: number): Promise<void> {
    const attempts = record.attempts + 1;
    const nextAttemptAt = clock.now() + retryDelayMs(record.kind, attempts, random(), retryAfterMs);
    const db = await getDb();
    await store.recordAttempt(db, record.seq, record.key, { attempts, nextAttemptAt, lastError: error });
    emit({ type: 'retrying', mutation: { ...store.toInfo(record), attempts, nextAttemptAt, lastError: error }, error });
  }

  async function holdFor(record: PendingRecord): Promise<void> {
    // Set at once, so the other cases' workers stop before their next request.
    if (!held) {
      held = true;
      setFlags();
      emit({ type: 'held-unauthorized', mutation: store.toInfo(record) });
    }
    const db = await getDb();
    await store.recordAttempt(db, record.seq, record.key, {
      attempts: record.attempts + 1,
      nextAttemptAt: record.nextAttemptAt,
      lastError: 'HTTP 401',
    });
  }

  async function rejectRecord(record: PendingRecord, status: number, message: string): Promise<SendResult> {
    const db = await getDb();
    const rejected = await store.reject(db, record.seq, record.key, { status, message, rejectedAt: clock.now() });
    if (rejected) emit({ type: 'rejected', mutation: store.toRejectedInfo(rejected) });
    announceChange();
    // The case goes on with its next change.
    return { outcome: 'next', caseId: record.caseId };
  }

  async function buildRequest(record: PendingRecord, signal: AbortSignal): Promise<OutboxRequest> {
    const request: OutboxRequest = {
      method: record.method,
      path: record.path,
      headers: { [IDEMPOTENCY_KEY_HEADER]: record.key },
      idempotencyKey: record.key,
      caseId: record.caseId,
      createdAt: record.createdAt,
      signal,
    };
    if (record.body) {
      const value = await unreadable(openBody(record.body));
      request.json = record.placeholderId ? replaceDeep(value, record.placeholderId, record.caseId) : value;
    }
    if (record.media) {
      const db = await getDb();
      const stored = await store.getMedia(db, record.key);
      if (!stored) throw new UnreadableChangeError('media file missing');
      const bytes = await unreadable(openBytes(stored.bytes));
      const multipart: MultipartBody = {
        fields: { ...record.media.fields },
        file: {
          field: record.media.fileField,
          name: record.media.fileName,
          blob: new Blob([bytes], { type: record.media.type }),
        },
      };
      request.multipart = multipart;
    }
    return request;
  }

  // ---------- at-rest encoding ----------

  async function sealBody(value: unknown): Promise<StoredBody> {
    // Round-trip through JSON: what is stored is exactly what will be sent.
    const json = JSON.stringify(value);
    if (!codec) return { sealed: false, value: JSON.parse(json) as unknown };
    return { sealed: true, ...(await codec.seal(new TextEncoder().encode(json))) };
  }

  async function openBody(body: StoredBody): Promise<unknown> {
    if (!body.sealed) return body.value;
    if (!codec) throw new Error('sealed body and no codec');
    return JSON.parse(new TextDecoder().decode(await codec.open(body))) as unknown;
  }

  async function sealBytes(data: ArrayBuffer): Promise<StoredBytes> {
    if (!codec) return { sealed: false, data };
    return { sealed: true, ...(await codec.seal(new Uint8Array(data))) };
  }

  async function openBytes(bytes: StoredBytes): Promise<Uint8Array<ArrayBuffer>> {
    if (!bytes.sealed) return new Uint8Array(bytes.data);
    if (!codec) throw new Error('sealed media and no codec');
    return new Uint8Array(await codec.open(bytes));
  }

  // ---------- enqueue ----------

  async function enqueueAll(inputs: readonly MutationInput[]): Promise<MutationInfo[]> {
    inputs.forEach(validateInput);
    if (inputs.length === 0) return [];
    const now = clock.now();
    // Sealing takes each change its own time (none without a body, long for a video), so two taps
    // enqueued at once would be numbered — and sent — in the order their sealing ended. They are
    // sealed side by side, but stored one after the other, in the order enqueue() was called.
    const prepared = inputs.map((input) => {
      const key = newKey();
      const sealed = Promise.all([
        input.body === undefined ? null : sealBody(input.body),
        input.media ? blobBytes(input.media.blob).then(sealBytes) : null,
      ]);
      // Awaited in its turn; until then a failure (quota, no key) must not count as unhandled.
      sealed.catch(() => undefined);
      return { input, key, sealed };
    });
    const turn = enqueueTurn.then(async () => {
      const entries: { record: store.NewPendingRecord; media: store.MediaRecord | null }[] = [];
      for (const { input, key, sealed } of prepared) {
        const [body, bytes] = await sealed;
        entries.push({
          record: {
            key,
            caseId: input.caseId,
            placeholderId: null,
            kind: input.kind,
            method: input.method,
            path: input.path,
            createdAt: now,
            attempts: 0,
            nextAttemptAt: now,
            lastError: null,
            body,
            media: input.media
              ? {
                  fileName: input.media.fileName,
                  fileField: input.media.fileField ?? 'data',
                  fields: { ...input.media.fields },
                  type: input.media.blob.type,
                  size: input.media.blob.size,
                }
              : null,
          },
          media: bytes ? { key, bytes } : null,
        });
      }
      return store.addPendingAll(await getDb(), entries);
    });
    // The next enqueue waits for this one to be stored or to fail, never for its caller.
    enqueueTurn = turn.catch(() => undefined);
    const infos = (await turn).map(store.toInfo);
    for (const info of infos) emit({ type: 'queued', mutation: info });
    announceChange();
    void kick(false);
    return infos;
  }

  // ---------- browser events ----------

  const onOnline = () => {
    browserOnline = true;
    reachable = true;
    emit({ type: 'connectivity', online: true });
    setFlags();
    void kick(true);
  };
  const onOffline = () => {
    browserOnline = false;
    emit({ type: 'connectivity', online: false });
    setFlags();
  };
  const onVisibility = () => {
    if (isVisible()) void kick(true);
  };
  const onChannelMessage = () => {
    void refreshSnapshot();
    void kick(false);
  };

  // ---------- the API ----------

  return {
    async start() {
      if (started) return;
      started = true;
      browserOnline = isBrowserOnline();
      events?.addEventListener('online', onOnline);
      events?.addEventListener('offline', onOffline);
      events?.addEventListener('visibilitychange', onVisibility);
      if (channelName && typeof BroadcastChannel !== 'undefined') {
        channel = new BroadcastChannel(channelName);
        channel.addEventListener('message', onChannelMessage);
      }
      await getDb();
      setFlags();
      await refreshSnapshot();
      void kick(true);
    },

    async stop() {
      if (!started) return;
      started = false;
      events?.removeEventListener('online', onOnline);
      events?.removeEventListener('offline', onOffline);
      events?.removeEventListener('visibilitychange', onVisibility);
      channel?.close();
      channel = null;
      if (wakeTimer !== null) timers.clearTimeout(wakeTimer);
      wakeTimer = null;
      for (const controller of inFlight) controller.abort();
      await passes;
      await refreshing;
      const db = await dbPromise?.catch(() => null);
      db?.close();
      dbPromise = null;
    },

    async enqueue(input) {
      const [info] = await enqueueAll([input]);
      return info!;
    },

    enqueueAll,

    flush: () => kick(true),

    async whenIdle() {
      while (passes || refreshing) {
        await passes;
        await refreshing;
      }
    },

    async resume() {
      if (held) {
        held = false;
        setFlags();
        emit({ type: 'resumed' });
      }
      await kick(true);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    subscribeSnapshot(listener) {
      snapshotListeners.add(listener);
      return () => snapshotListeners.delete(listener);
    },

    snapshot: () => current,

    async pendingCount() {
      return store.countUndelivered(await getDb());
    },

    async listPending(caseId) {
      const pending = await store.listPending(await getDb());
      return pending.filter((record) => caseId === undefined || record.caseId === caseId).map(store.toInfo);
    },

    async listRejected() {
      return (await store.listRejected(await getDb())).map(store.toRejectedInfo);
    },

    async resolvePlaceholder(placeholderId) {
      const found = await store.getPlaceholder(await getDb(), placeholderId);
      if (!found) return null;
      const { resolvedAt: _resolvedAt, ...resolution } = found;
      return resolution;
    },

    async retryRejected(key) {
      await store.requeueRejected(await getDb(), key, clock.now());
      announceChange();
      await kick(false);
    },

    async discardRejected(key) {
      await store.deleteRejected(await getDb(), key);
      announceChange();
    },

    forgetCase: async (caseId) => store.forgetCase(await getDb(), caseId),

    async clear() {
      await store.clearAll(await getDb());
      held = false;
      emit({ type: 'cleared' });
      announceChange();
      await refreshSnapshot();
    },
  };
}

// ---------- helpers ----------

function defaultLocks(): OutboxLockManager | null {
  if (typeof navigator === 'undefined' || !('locks' in navigator) || !navigator.locks) return null;
  const manager = navigator.locks;
  // The DOM typing nests the callback's promise (Promise<Promise<T>>); at run time it is one promise.
  return {
    request: <T>(name: string, callback: () => Promise<T>) => manager.request(name, callback) as unknown as Promise<T>,
  };
}

/**
 * The head of each case: its oldest pending mutation — except that a placeholder case always starts
 * with its `createCase` (nothing else of it can be sent before the real id exists).
 */
function headsOf(pending: PendingRecord[]): PendingRecord[] {
  const heads = new Map<string, PendingRecord>();
  for (const record of pending) {
    const head = heads.get(record.caseId);
    if (!head) heads.set(record.caseId, record);
    else if (isPlaceholderId(record.caseId) && head.kind !== 'createCase' && record.kind === 'createCase')
      heads.set(record.caseId, record);
  }
  return [...heads.values()];
}

/** A mutation of a placeholder case can only go once the case exists — except the create itself. */
function isSendable(record: PendingRecord): boolean {
  return !isPlaceholderId(record.caseId) || record.kind === 'createCase';
}

function buildSnapshot(
  pending: PendingRecord[],
  rejected: RejectedMutation[],
  held: boolean,
  online: boolean,
): OutboxSnapshot {
  const byCase: Record<string, CasePendingStatus> = {};
  let oldestPendingAt: number | null = null;
  for (const record of pending) {
    const entry = byCase[record.caseId];
    if (entry) {
      entry.pending += 1;
      entry.oldestPendingAt = Math.min(entry.oldestPendingAt, record.createdAt);
    } else {
      byCase[record.caseId] = { pending: 1, oldestPendingAt: record.createdAt, blocked: false };
    }
    oldestPendingAt = oldestPendingAt === null ? record.createdAt : Math.min(oldestPendingAt, record.createdAt);
  }
  for (const head of headsOf(pending)) {
    const entry = byCase[head.caseId];
    if (entry) entry.blocked = !isSendable(head);
  }
  return { ready: true, pendingTotal: pending.length, byCase, oldestPendingAt, rejected, held, online };
}

function sameSnapshot(a: OutboxSnapshot, b: OutboxSnapshot): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function validateInput(input: MutationInput): void {
  if (!input.caseId) throw new Error('outbox: a mutation needs a caseId');
  if (!input.path.startsWith('/')) throw new Error(`outbox: path must start with / (${input.path})`);
  if (input.kind === 'media' && !input.media) throw new Error('outbox: a media mutation needs its file');
  if (input.media && input.body !== undefined)
    throw new Error('outbox: a mutation carries a JSON body or a file, not both');
}

async function blobBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Response(blob).arrayBuffer();
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('aborted'));
      return;
    }
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    promise.then(resolve, reject);
  });
}

function serverMessage(response: OutboxResponse): string {
  const parsed = ErrorBody.safeParse(response.body);
  return parsed.success ? parsed.data.message : `The server refused this change (HTTP ${response.status}).`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Replaces every string equal to `from` in a JSON value (a body that names its case). */
function replaceDeep(value: unknown, from: string, to: string): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, from, to));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceDeep(v, from, to)]));
  }
  return value;
}
