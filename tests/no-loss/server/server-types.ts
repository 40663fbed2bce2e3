/**
 * The shape of the server harness (`server-under-test.ts`), for the test's side. The harness itself is
 * type-checked with Node's globals only, as the server is: see `loadServerHarness` for why.
 */
import type { FastifyInstance } from 'fastify';

/**
 * A migrated, seeded database with medic1 signed in, made once per test file and copied for every
 * schedule: seeding hashes the demo passwords (argon2), far too slow to repeat 200 times.
 */
export interface ServerTemplate {
  dir: string;
  /** medic1's token; its session is in the template, so it is valid on every copy. */
  token: string;
  remove(): void;
}

/** What the server has durably written for the crew user: idempotency records and case events. */
export interface Ledger {
  keys: { key: string; caseId: string; status: number; response: unknown }[];
  events: { id: string; caseId: string; seq: number; type: string; payload: Record<string, unknown> }[];
  cases: { id: string; placeholderId: string | null }[];
}

export interface ServerUnderTest {
  /** The running app, or null while it is down (killed and not started again). */
  readonly app: FastifyInstance | null;
  /** Goes up by one at every kill: an answer from an earlier generation is never delivered. */
  readonly generation: number;
  start(): Promise<void>;
  /** Crash: what is on disk now is what the next start sees; the old app is closed in the background. */
  kill(): void;
  /** What is in the database files now (read through a separate connection, as after a restart). */
  ledger(): Ledger;
  /** Waits for killed apps to finish closing and deletes every DATA dir. */
  dispose(): Promise<void>;
}

export interface ServerHarness {
  createServerTemplate(): Promise<ServerTemplate>;
  createServerUnderTest(template: ServerTemplate): ServerUnderTest;
}
