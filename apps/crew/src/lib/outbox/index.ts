/** The crew app's persistent outbox: see README.md beside this file, and the design at the top of outbox.ts. */
export { createOutbox, isPlaceholderId, pendingAgeMs, OUTBOX_DB_NAME, OUTBOX_LOCK_NAME } from './outbox';
export type { Outbox, OutboxOptions } from './outbox';
export { caseMutations } from './caseMutations';
export type { MediaEventType } from './caseMutations';
export { createFetchTransport } from './fetchTransport';
export type { FetchTransportOptions } from './fetchTransport';
export { createTusTransport, tusFingerprint, TUS_CHUNK_BYTES } from './tusTransport';
export type { TusTransportOptions } from './tusTransport';
export { createAesGcmCodec } from './codec';
export { requestPersistentStorage } from './persistence';
export type { PersistenceResult } from './persistence';
export { useOutboxStatus } from './useOutboxStatus';
export type { OutboxStatus } from './useOutboxStatus';
export { RETRY_BASE_MS, RETRY_CAP_MS, classifyStatus, retryDelayMs } from './backoff';
export type * from './types';
