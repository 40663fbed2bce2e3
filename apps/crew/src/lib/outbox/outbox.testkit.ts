/**
 * Test doubles for the outbox (used by its tests; not shipped — nothing in the app imports this file):
 * a fake server that keeps every request it saw and applies each idempotency key once, a manual clock
 * with timers, and an exclusive lock manager shared by several "tabs".
 */
import type { MutationMethod, OutboxLockManager, OutboxRequest, OutboxResponse, OutboxTransport } from './types';

export interface SeenRequest {
  method: MutationMethod;
  path: string;
  key: string;
  createdAt: number;
  json: unknown;
  multipart: { fields: Record<string, string>; field: string; fileName: string; type: string; bytes: number[] } | null;
}

/** What the server does with a request: an answer, no answer, or never answer. `undefined` = the default. */
export type Reply = OutboxResponse | 'network-error' | 'hang' | undefined;

export interface FakeServer {
  transport: OutboxTransport;
  /** Every attempt, in the order they arrived. */
  requests: SeenRequest[];
  /** What the server wrote: the first successful request of each idempotency key, in order. */
  applied: SeenRequest[];
  /** When true every request fails as fetch does offline (counted in `offlineAttempts`, not in `requests`). */
  offline: boolean;
  offlineAttempts: number;
  /** Awaited before each answer (real time), to let requests of several tabs overlap. */
  latency: (() => Promise<void>) | null;
  /** Overrides the default behaviour (return undefined to fall through to it). */
  reply: (request: SeenRequest, attempt: number) => Reply;
  /** Answers given to requests left hanging ('hang'), released by `releaseHanging`. */
  releaseHanging(): void;
}

export function createFakeServer(): FakeServer {
  const answers = new Map<string, OutboxResponse>();
  const hanging: (() => void)[] = [];
  let cases = 0;

  const server: FakeServer = {
    requests: [],
    applied: [],
    offline: false,
    offlineAttempts: 0,
    latency: null,
    reply: () => undefined,
    releaseHanging() {
      for (const release of hanging.splice(0)) release();
    },
    async transport(request: OutboxRequest): Promise<OutboxResponse> {
      const seen = await describeRequest(request);
      if (server.offline) {
        server.offlineAttempts += 1;
        throw new TypeError('Failed to fetch');
      }
      server.requests.push(seen);
      if (server.latency) await server.latency();
      const attempt = server.requests.filter((r) => r.key === seen.key).length;
      const reply = server.reply(seen, attempt);
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      if (reply === 'hang') {
        // Stays unanswered until released, then applies it (the server got it, the page never heard).
        await new Promise<void>((resolve) => hanging.push(resolve));
        return apply(seen);
      }
      if (reply) return reply;
      return apply(seen);
    },
  };

  /** The idempotent server: a repeated key gets the first answer and writes nothing. */
  function apply(seen: SeenRequest): OutboxResponse {
    const earlier = answers.get(seen.key);
    if (earlier) return earlier;
    let answer: OutboxResponse = { status: 200, body: { ok: true } };
    if (seen.path.startsWith('/v4/twiageCases?')) {
      cases += 1;
      answer = {
        status: 201,
        body: {
          id: `case-${cases}`,
          caseNumber: `R-${cases}`,
          channelId: `case:case-${cases}`,
          ownedBy: 'medic1',
          createdAt: new Date(0).toISOString(),
        },
      };
    }
    answers.set(seen.key, answer);
    server.applied.push(seen);
    return answer;
  }

  return server;
}

async function describeRequest(request: OutboxRequest): Promise<SeenRequest> {
  const multipart = request.multipart
    ? {
        fields: request.multipart.fields,
        field: request.multipart.file.field,
        fileName: request.multipart.file.name,
        type: request.multipart.file.blob.type,
        bytes: [...new Uint8Array(await request.multipart.file.blob.arrayBuffer())],
      }
    : null;
  return {
    method: request.method,
    path: request.path,
    key: request.headers['Idempotency-Key'] ?? '(none)',
    createdAt: request.createdAt,
    json: request.json,
    multipart,
  };
}

export interface ManualTime {
  clock: { now(): number };
  timers: { setTimeout(callback: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
  /** Moves the clock forward, firing every timer that falls due, in order. */
  advance(ms: number): void;
  /** When the earliest timer is due, or null. */
  nextTimerAt(): number | null;
}

export function createManualTime(start = Date.UTC(2026, 10, 21, 23, 0, 0)): ManualTime {
  let now = start;
  let lastId = 0;
  const tasks = new Map<number, { at: number; callback: () => void }>();
  return {
    clock: { now: () => now },
    timers: {
      setTimeout(callback, ms) {
        lastId += 1;
        tasks.set(lastId, { at: now + Math.max(0, ms), callback });
        return lastId;
      },
      clearTimeout(handle) {
        tasks.delete(handle as number);
      },
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...tasks.entries()].filter(([, task]) => task.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        tasks.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = target;
    },
    nextTimerAt() {
      const times = [...tasks.values()].map((task) => task.at);
      return times.length === 0 ? null : Math.min(...times);
    },
  };
}

/** An exclusive, first-come lock per name, shared by the "tabs" given the same manager. */
export function createFakeLocks(): OutboxLockManager & { maxHolders: number } {
  const tails = new Map<string, Promise<void>>();
  let holders = 0;
  const manager = {
    maxHolders: 0,
    async request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const before = tails.get(name) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      tails.set(
        name,
        before.then(() => mine),
      );
      await before;
      holders += 1;
      manager.maxHolders = Math.max(manager.maxHolders, holders);
      try {
        return await callback();
      } finally {
        holders -= 1;
        release();
      }
    },
  };
  return manager;
}
