/**
 * The outbox's public types: what a mutation is, what the transport gets and answers, what listeners
 * hear. The design and its reasons are at the top of `outbox.ts`.
 */

/** What a mutation does; `media` is a multipart upload, everything else a JSON body (or none). */
export type MutationKind =
  | 'createCase'
  | 'patchCase'
  | 'addTag'
  | 'removeTag'
  | 'tagValues'
  | 'location'
  | 'dynamicForm'
  | 'monitor'
  | 'caseFeedback'
  | 'handoffWatch'
  | 'chat'
  | 'media';

export type MutationMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A file to upload as multipart: `fields` become form fields, the file goes under `fileField`. */
export interface MediaInput {
  blob: Blob;
  fileName: string;
  /** Form field that carries the file (spec §7: `data`). */
  fileField?: string;
  /** Other form fields (spec §7: `type`). */
  fields?: Record<string, string>;
}

/** What the app hands to `enqueue()`. Builders for every case call are in `caseMutations.ts`. */
export interface MutationInput {
  /** The case this change belongs to; `placeholder-{ts}` while the case only exists on this device. */
  caseId: string;
  kind: MutationKind;
  method: MutationMethod;
  /** The request path with the case id in it, e.g. `/v4/twiageCases/placeholder-1/tags?tagId=t1`. */
  path: string;
  /** JSON body (structured-clonable); omit for none. */
  body?: unknown;
  media?: MediaInput;
}

/** A queued mutation as listeners and the UI see it (no body: events must not carry patient data around). */
export interface MutationInfo {
  /** The Idempotency-Key: made once at enqueue, the same on every attempt, reload and tab. */
  key: string;
  /** Insertion order across the whole outbox; order per case follows it. */
  seq: number;
  caseId: string;
  /** The placeholder id this mutation was queued under, once it has been rewritten to the real id. */
  placeholderId: string | null;
  kind: MutationKind;
  method: MutationMethod;
  path: string;
  /** When the crew made the change (epoch ms); the transport sends it as `Created-At`. */
  createdAt: number;
  attempts: number;
  /** Not sent before this time (epoch ms). */
  nextAttemptAt: number;
  lastError: string | null;
  /** A media upload's file: its form fields (`type`, …), content type and size; null for JSON changes. */
  media?: MediaInfo | null;
}

/** What listeners may know of a queued file (no bytes). */
export interface MediaInfo {
  fields: Record<string, string>;
  contentType: string;
  size: number;
}

/** A multipart body, built into `FormData` by the transport. */
export interface MultipartBody {
  fields: Record<string, string>;
  file: { field: string; name: string; blob: Blob };
}

/** One HTTP request the outbox asks the transport to make. */
export interface OutboxRequest {
  method: MutationMethod;
  path: string;
  /** Always carries the Idempotency-Key; the transport adds Authorization and anything else it needs. */
  headers: Record<string, string>;
  idempotencyKey: string;
  /** The case the change belongs to (always the real id by the time it is sent). */
  caseId: string;
  /** When the crew made the change (epoch ms), for the `Created-At` header (spec §7). */
  createdAt: number;
  json?: unknown;
  multipart?: MultipartBody;
  /** Aborted when the request times out or the outbox stops; the transport passes it to fetch. */
  signal: AbortSignal;
  /**
   * Uploads: the transport reports bytes the server has (`loaded`, from the resumed offset on) out of
   * `total` as they go. Optional for a transport: without it the item jumps from 0 to sent.
   */
  onProgress?: (loaded: number, total: number) => void;
}

/**
 * The server's answer. A network failure (no answer at all) is a thrown error or `status: 0`.
 * `retryAfterMs` is the server's Retry-After, when it sent one.
 */
export interface OutboxResponse {
  status: number;
  body: unknown;
  retryAfterMs?: number;
}

export type OutboxTransport = (request: OutboxRequest) => Promise<OutboxResponse>;

/** A mutation the server refused (4xx other than 401/408/429): kept, with the server's message, until the crew decides. */
export interface RejectedMutation extends MutationInfo {
  status: number;
  message: string;
  rejectedAt: number;
}

export interface PlaceholderResolution {
  placeholderId: string;
  caseId: string;
  caseNumber: string;
  channelId: string;
  ownedBy: string;
  createdAt: string;
}

export type OutboxEvent =
  | { type: 'queued'; mutation: MutationInfo }
  | { type: 'sent'; mutation: MutationInfo; status: number; response: unknown }
  | { type: 'retrying'; mutation: MutationInfo; error: string }
  /** An upload on its way: bytes sent out of the file's (0 when the attempt starts). Never broadcast. */
  | { type: 'progress'; mutation: MutationInfo; loaded: number; total: number }
  | { type: 'held-unauthorized'; mutation: MutationInfo }
  | { type: 'resumed' }
  | { type: 'rejected'; mutation: RejectedMutation }
  | ({ type: 'placeholder-resolved'; response: unknown } & PlaceholderResolution)
  | { type: 'connectivity'; online: boolean }
  | { type: 'cleared' };

export type OutboxListener = (event: OutboxEvent) => void;

export interface CasePendingStatus {
  /** Mutations of this case not yet accepted by the server (rejected ones not included). */
  pending: number;
  /** createdAt of the oldest pending mutation (epoch ms). */
  oldestPendingAt: number;
  /** A placeholder case whose `createCase` is not queued: its changes wait (e.g. the create was rejected). */
  blocked: boolean;
}

/**
 * What the UI shows. The object is immutable and keeps its identity until something changes, so React's
 * `useSyncExternalStore` can use it directly; ages are computed by the reader (`pendingAgeMs`).
 */
export interface OutboxSnapshot {
  /** False until `start()` has read the database. */
  ready: boolean;
  pendingTotal: number;
  byCase: Readonly<Record<string, CasePendingStatus>>;
  /** createdAt of the oldest pending mutation of any case (epoch ms), null when none. */
  oldestPendingAt: number | null;
  rejected: readonly RejectedMutation[];
  /** A 401 holds the whole queue until `resume()`. */
  held: boolean;
  /** The browser says online and the last request got an answer. */
  online: boolean;
}

/** Exclusive named locks (the Web Locks API's shape), so only one tab sends at a time. */
export interface OutboxLockManager {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface OutboxClock {
  now(): number;
}

export interface OutboxTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Encrypts what the outbox keeps at rest (patient data). `createAesGcmCodec` is the one the app uses. */
export interface OutboxCodec {
  seal(plain: Uint8Array): Promise<SealedBytes>;
  open(sealed: SealedBytes): Promise<Uint8Array>;
}

export interface SealedBytes {
  iv: Uint8Array;
  data: ArrayBuffer;
}
