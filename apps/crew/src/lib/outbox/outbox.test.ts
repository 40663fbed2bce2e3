// The outbox's guarantees, each checked against the requests a fake server actually saw: order per case,
// one idempotency key per change across retries, reloads and tabs, 401 holds, 4xx set aside, placeholder
// ids rewritten, media kept, back-off bounded. fake-indexeddb (test/setup.ts) stands in for IndexedDB.
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETRY_CAP_MS } from './backoff';
import { caseMutations } from './caseMutations';
import { createAesGcmCodec } from './codec';
import {
  createOutbox,
  MEDIA_REQUEST_TIMEOUT_MS,
  pendingAgeMs,
  REQUEST_TIMEOUT_MS,
  type Outbox,
  type OutboxOptions,
} from './outbox';
import { createFakeLocks, createFakeServer, createManualTime, type SeenRequest } from './outbox.testkit';
import type { OutboxEvent } from './types';

const PLACEHOLDER = 'placeholder-1763766000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Real-time waits are generous: a full parallel run on a small machine is slow. */
const WAIT = { timeout: 5_000 };

let databases = 0;
const running: Outbox[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((outbox) => outbox.stop()));
});

function setup(defaults: Partial<OutboxOptions> = {}) {
  databases += 1;
  const dbName = `outbox-test-${databases}`;
  const server = createFakeServer();
  const time = createManualTime();
  const events = new EventTarget();
  const seen: OutboxEvent[] = [];
  /** One outbox = one page (tab) on the same device database. */
  const open = (options: Partial<OutboxOptions> = {}) => {
    const outbox = createOutbox({
      transport: server.transport,
      dbName,
      clock: time.clock,
      timers: time.timers,
      random: () => 0.5,
      events,
      isBrowserOnline: () => !server.offline,
      isVisible: () => true,
      locks: null,
      broadcastChannel: null,
      ...defaults,
      ...options,
    });
    outbox.subscribe((event) => seen.push(event));
    running.push(outbox);
    return outbox;
  };
  /** Fires the earliest timer (a retry) and waits for the pass it starts. */
  const fireNextTimer = async (outbox: Outbox) => {
    const at = time.nextTimerAt();
    if (at === null) throw new Error('no timer set');
    time.advance(at - time.clock.now());
    await settle(outbox);
  };
  const goOnline = async (outbox: Outbox) => {
    server.offline = false;
    events.dispatchEvent(new Event('online'));
    await settle(outbox);
  };
  return { dbName, server, time, events, seen, open, fireNextTimer, goOnline };
}

/** Lets kicked passes begin (they start on a later tick), then waits for them to end. */
async function settle(...outboxes: Outbox[]) {
  for (let round = 0; round < 3; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all(outboxes.map((outbox) => outbox.whenIdle()));
  }
}

const age = (caseId: string, years: number) => caseMutations.patchCase(caseId, { age: years, agePeriod: 3 });
const ageOf = (request: SeenRequest) => (request.json as { age: number }).age;
const onCase = (caseId: string) => (request: SeenRequest) => request.path.includes(`/${caseId}`);

describe('enqueue', () => {
  it('resolves once the mutation is stored in IndexedDB, with a fresh UUID idempotency key', async () => {
    const { open, dbName, seen } = setup();
    const outbox = open(); // not started: nothing is sent, the change is only kept
    const first = await outbox.enqueue(age('case-1', 30));
    const second = await outbox.enqueue(age('case-1', 31));

    const db = await openDB(dbName);
    const stored = (await db.getAll('pending')) as { key: string; path: string; body: unknown; seq: number }[];
    db.close();
    expect(stored.map((r) => [r.key, r.path, r.body])).toEqual([
      [first.key, '/v4/twiageCases/case-1', { sealed: false, value: { age: 30, agePeriod: 3 } }],
      [second.key, '/v4/twiageCases/case-1', { sealed: false, value: { age: 31, agePeriod: 3 } }],
    ]);
    expect(first.key).toMatch(UUID);
    expect(second.key).not.toBe(first.key);
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(seen.filter((e) => e.type === 'queued')).toHaveLength(2);
    expect(await outbox.pendingCount()).toBe(2);
  });

  it('refuses a mutation without a case or with a relative path', async () => {
    const outbox = setup().open();
    await expect(outbox.enqueue({ ...age('case-1', 3), caseId: '' })).rejects.toThrow(/caseId/);
    await expect(outbox.enqueue({ ...age('case-1', 3), path: 'v4/x' })).rejects.toThrow(/path/);
    expect(await outbox.pendingCount()).toBe(0);
  });
});

describe('enqueueAll', () => {
  it("stores one tap's changes together, in order, between the changes enqueued before and after it", async () => {
    const { open, server, seen, goOnline } = setup();
    server.offline = true;
    const outbox = open();
    await outbox.start();
    const [before, swap, after] = await Promise.all([
      outbox.enqueue(age('case-1', 40)),
      outbox.enqueueAll([caseMutations.removeTag('case-1', 'left'), caseMutations.addTag('case-1', 'right')]),
      outbox.enqueue(age('case-1', 41)),
    ]);
    expect(swap.map((info) => info.kind)).toEqual(['removeTag', 'addTag']);
    expect([before.seq, ...swap.map((info) => info.seq), after.seq]).toEqual(
      [before.seq, ...swap.map((info) => info.seq), after.seq].sort((a, b) => a - b),
    );
    expect(seen.filter((e) => e.type === 'queued')).toHaveLength(4);
    expect(await outbox.enqueueAll([])).toEqual([]);

    await goOnline(outbox);
    expect(server.applied.map((r) => `${r.method} ${r.path}`)).toEqual([
      'PATCH /v4/twiageCases/case-1',
      'DELETE /v4/twiageCases/case-1/tags?tagId=left',
      'POST /v4/twiageCases/case-1/tags?tagId=right',
      'PATCH /v4/twiageCases/case-1',
    ]);
  });

  it('stores all of them or none: a change that cannot be sealed keeps the others out too', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const aes = createAesGcmCodec(() => Promise.resolve(key));
    const { open } = setup({
      codec: {
        seal: (plain) =>
          new TextDecoder().decode(plain).includes('"age":13') ? Promise.reject(new Error('quota')) : aes.seal(plain),
        open: (sealed) => aes.open(sealed),
      },
    });
    const outbox = open();
    await expect(outbox.enqueueAll([age('case-1', 12), age('case-1', 13)])).rejects.toThrow('quota');
    await expect(outbox.enqueueAll([age('case-1', 14), { ...age('case-1', 15), path: 'v4/x' }])).rejects.toThrow(
      /path/,
    );
    expect(await outbox.pendingCount()).toBe(0);
    await outbox.enqueue(age('case-1', 16));
    expect(await outbox.pendingCount()).toBe(1);
  });
});

describe('draining', () => {
  it('stores and sends changes enqueued at once in the order of the calls, with or without a body', async () => {
    // Found by tests/no-loss: a body-less change (a tag) overtook a complaint tapped just before it.
    const { open, server, goOnline } = setup();
    server.offline = true;
    const outbox = open();
    await outbox.start();
    await Promise.all([
      outbox.enqueue(caseMutations.patchCase('case-1', { complaint: 'stemi' })),
      outbox.enqueue(caseMutations.addTag('case-1', 'stemi.tag')),
      outbox.enqueue(age('case-1', 40)),
      outbox.enqueue(caseMutations.removeTag('case-1', 'stemi.tag')),
    ]);
    await goOnline(outbox);
    expect(server.applied.map((r) => `${r.method} ${r.path}`)).toEqual([
      'PATCH /v4/twiageCases/case-1',
      'POST /v4/twiageCases/case-1/tags?tagId=stemi.tag',
      'PATCH /v4/twiageCases/case-1',
      'DELETE /v4/twiageCases/case-1/tags?tagId=stemi.tag',
    ]);
    expect(server.applied.map((r) => r.json)).toEqual([
      { complaint: 'stemi' },
      undefined,
      { age: 40, agePeriod: 3 },
      undefined,
    ]);
  });

  it('keeps 20 changes made offline and sends them in order, each once, when back online', async () => {
    const { open, server, goOnline } = setup();
    server.offline = true;
    const outbox = open();
    await outbox.start();
    for (let years = 1; years <= 20; years += 1) await outbox.enqueue(age('case-1', years));
    await settle(outbox);

    expect(server.requests).toHaveLength(0);
    // Only the head was tried, once: the rest wait behind it instead of hammering a dead link.
    expect(server.offlineAttempts).toBe(1);
    expect(outbox.snapshot()).toMatchObject({ pendingTotal: 20, online: false });

    await goOnline(outbox);
    expect(server.applied.map(ageOf)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(server.requests).toHaveLength(20);
    expect(await outbox.pendingCount()).toBe(0);
    expect(outbox.snapshot()).toMatchObject({ pendingTotal: 0, online: true });
  });

  it('a failing head holds back its own case only; the case then goes on in order', async () => {
    const { open, server, fireNextTimer, time } = setup();
    let healed = false;
    server.reply = (request) =>
      request.path.endsWith('/case-A') && ageOf(request) === 1 && !healed ? { status: 503, body: {} } : undefined;
    const outbox = open();
    for (const [caseId, years] of [
      ['case-A', 1],
      ['case-B', 11],
      ['case-A', 2],
      ['case-B', 12],
      ['case-A', 3],
      ['case-B', 13],
    ] as const) {
      await outbox.enqueue(age(caseId, years));
    }
    await outbox.start();
    await settle(outbox);
    await fireNextTimer(outbox);
    await fireNextTimer(outbox);

    expect(server.applied.filter(onCase('case-B')).map(ageOf)).toEqual([11, 12, 13]);
    const caseA = server.requests.filter(onCase('case-A'));
    expect(caseA.map(ageOf)).toEqual([1, 1, 1]); // retried, and nothing behind it overtook it
    expect(new Set(caseA.map((r) => r.key)).size).toBe(1);

    healed = true;
    time.advance(RETRY_CAP_MS);
    await settle(outbox);
    expect(server.applied.filter(onCase('case-A')).map(ageOf)).toEqual([1, 2, 3]);
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('sends on flush(), on online and on visibilitychange without waiting for the back-off', async () => {
    const { open, server, events, fireNextTimer, time } = setup();
    server.reply = () => ({ status: 503, body: {} });
    const outbox = open();
    await outbox.enqueue(age('case-1', 40));
    await outbox.start();
    await settle(outbox);
    for (let i = 0; i < 4; i += 1) await fireNextTimer(outbox);
    expect(server.requests).toHaveLength(5);
    expect(time.nextTimerAt()! - time.clock.now()).toBeGreaterThan(10_000);

    await outbox.flush();
    expect(server.requests).toHaveLength(6);
    events.dispatchEvent(new Event('visibilitychange'));
    await settle(outbox);
    expect(server.requests).toHaveLength(7);
    server.reply = () => undefined;
    events.dispatchEvent(new Event('online'));
    await settle(outbox);
    expect(server.requests).toHaveLength(8);
    expect(server.applied).toHaveLength(1);
  });

  it('treats a request with no answer within the timeout as lost and sends it again with the same key', async () => {
    const { open, server, time } = setup({ requestTimeoutMs: 5_000 });
    server.reply = (_request, attempt) => (attempt === 1 ? 'hang' : undefined);
    const outbox = open();
    await outbox.start();
    const { key } = await outbox.enqueue(age('case-1', 50));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT);

    time.advance(5_000); // the timeout fires; the retry is due 750 ms later
    await settle(outbox);
    expect(server.requests).toHaveLength(1);
    time.advance(1_000);
    await settle(outbox);
    expect(server.requests.map((r) => r.key)).toEqual([key, key]);
    expect(await outbox.pendingCount()).toBe(0);
  });

  it('gives up on a silent JSON change after 15 s by default, but lets an upload run for 10 min', async () => {
    const { open, server, time, seen } = setup();
    server.reply = () => 'hang';
    const outbox = open();
    // Queued before start, so that one pass sends both cases side by side.
    await outbox.enqueue(age('case-1', 50));
    await outbox.enqueue(caseMutations.media('case-2', 'ekg', new Blob([new Uint8Array([1])], { type: 'image/jpeg' })));
    await outbox.start();
    await vi.waitFor(() => expect(server.requests).toHaveLength(2), WAIT);
    const timedOut = () => seen.flatMap((e) => (e.type === 'retrying' ? [e.mutation.kind] : []));
    // The pass stays busy while a request hangs, so settle() would wait for ever: let the tasks run.
    const run = async () => {
      for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
    };

    expect(REQUEST_TIMEOUT_MS).toBe(15_000);
    time.advance(REQUEST_TIMEOUT_MS - 1);
    await run();
    expect(timedOut()).toEqual([]);
    time.advance(1);
    await vi.waitFor(() => expect(timedOut()).toEqual(['patchCase']), WAIT);

    time.advance(MEDIA_REQUEST_TIMEOUT_MS - REQUEST_TIMEOUT_MS - 1);
    await run();
    expect(timedOut()).toEqual(['patchCase']);
    time.advance(1);
    await vi.waitFor(() => expect(timedOut()).toEqual(['patchCase', 'media']), WAIT);
  });

  it('keeps delivering when a listener throws', async () => {
    const { open, server } = setup();
    const outbox = open();
    outbox.subscribe(() => {
      throw new Error('broken screen');
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await outbox.start();
    await outbox.enqueue(age('case-1', 1));
    await outbox.enqueue(age('case-1', 2));
    await settle(outbox);
    expect(server.applied.map(ageOf)).toEqual([1, 2]);
    expect(error).toHaveBeenCalled();
  });
});

describe('surviving a reload', () => {
  it('keeps the idempotency key across retries and across a new page on the same database', async () => {
    const { open, server, fireNextTimer } = setup();
    server.reply = () => ({ status: 500, body: { message: 'boom' } });
    const firstPage = open();
    await firstPage.start();
    const { key } = await firstPage.enqueue(age('case-1', 60));
    await settle(firstPage);
    await fireNextTimer(firstPage);
    await fireNextTimer(firstPage);
    await firstPage.stop();
    expect(server.requests).toHaveLength(3);

    server.reply = () => undefined;
    const secondPage = open();
    expect(await secondPage.listPending()).toEqual([
      expect.objectContaining({ key, attempts: 3, lastError: 'HTTP 500' }),
    ]);
    await secondPage.start();
    await settle(secondPage);
    expect(server.requests.map((r) => r.key)).toEqual([key, key, key, key]);
    expect(server.applied).toHaveLength(1);
    expect(await secondPage.pendingCount()).toBe(0);
  });

  it('sends again, with the same key, a mutation that was in flight when the page died', async () => {
    const { open, server } = setup();
    server.reply = () => (server.requests.length === 1 ? 'hang' : undefined); // only the very first request
    const dyingPage = open();
    await dyingPage.start();
    const { key } = await dyingPage.enqueue(age('case-1', 70));
    const later = await dyingPage.enqueue(age('case-1', 71));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT);

    // The page is gone mid-request (its lock with it); a new page opens the same database.
    const newPage = open();
    await newPage.start();
    await settle(newPage);
    expect(server.requests.map((r) => r.key)).toEqual([key, key, later.key]);
    expect(server.applied.map(ageOf)).toEqual([70, 71]);

    // The old request reaches the server at last: the key makes it a no-op.
    server.releaseHanging();
    await settle(dyingPage, newPage);
    expect(server.applied.map(ageOf)).toEqual([70, 71]);
    expect(await newPage.pendingCount()).toBe(0);
  });

  it('stop() aborts a request in flight without counting it, and the next start sends it', async () => {
    const { open, server } = setup();
    server.reply = (_request, attempt) => (attempt === 1 ? 'hang' : undefined);
    const page = open();
    await page.start();
    const { key } = await page.enqueue(age('case-1', 72));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT);
    await page.stop();
    expect(await page.listPending()).toEqual([expect.objectContaining({ key, attempts: 0 })]);

    const next = open();
    await next.start();
    await settle(next);
    expect(server.applied.map((r) => r.key)).toEqual([key]);
  });

  it('keeps a media file across a reload and uploads the same bytes', async () => {
    const { open, server, goOnline, dbName } = setup();
    server.offline = true;
    const bytes = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 1, 2, 3, 254, 255]);
    const firstPage = open();
    await firstPage.start();
    const { key } = await firstPage.enqueue(
      caseMutations.media('case-1', 'photo', new Blob([bytes], { type: 'image/jpeg' })),
    );
    await settle(firstPage);
    await firstPage.stop();

    const secondPage = open();
    await secondPage.start();
    await goOnline(secondPage);
    expect(server.applied).toEqual([
      expect.objectContaining({
        key,
        method: 'POST',
        path: '/media/twiage-cases/case-1/uploads',
        multipart: {
          fields: { type: 'photo' },
          field: 'data',
          fileName: 'photo.jpeg',
          type: 'image/jpeg',
          bytes: [...bytes],
        },
      }),
    ]);
    const db = await openDB(dbName);
    expect(await db.count('media')).toBe(0); // delivered: the bytes are gone from the device
    db.close();
  });
});

describe('server answers', () => {
  it('401 holds the whole queue, drops nothing, and resume() sends it all in order', async () => {
    const { open, server, seen, time } = setup();
    let signedIn = false;
    server.reply = () => (signedIn ? undefined : { status: 401, body: { message: 'jwt expired' } });
    const outbox = open();
    await outbox.enqueue(age('case-A', 1));
    await outbox.enqueue(age('case-B', 11));
    await outbox.enqueue(age('case-A', 2));
    await outbox.start();
    await settle(outbox);
    const triedBeforeHold = server.requests.length;
    expect(triedBeforeHold).toBeGreaterThanOrEqual(1);
    expect(triedBeforeHold).toBeLessThanOrEqual(2); // the two heads may have been in flight together
    expect(outbox.snapshot().held).toBe(true);
    expect(seen.filter((e) => e.type === 'held-unauthorized')).toHaveLength(1);

    // Held: no timer, no flush, no new change gets anything out — and nothing is lost.
    await outbox.enqueue(age('case-B', 12));
    time.advance(10 * 60_000);
    await outbox.flush();
    await settle(outbox);
    expect(server.requests).toHaveLength(triedBeforeHold);
    expect(await outbox.pendingCount()).toBe(4);

    signedIn = true;
    await outbox.resume();
    await settle(outbox);
    expect(server.applied.filter(onCase('case-A')).map(ageOf)).toEqual([1, 2]);
    expect(server.applied.filter(onCase('case-B')).map(ageOf)).toEqual([11, 12]);
    expect(outbox.snapshot()).toMatchObject({ held: false, pendingTotal: 0, rejected: [] });
    expect(seen.some((e) => e.type === 'resumed')).toBe(true);
  });

  it.each([400, 403, 404, 409, 413, 422])(
    '%i sets the change aside as rejected with the server message and goes on',
    async (status) => {
      const { open, server, seen } = setup();
      server.reply = (request) =>
        ageOf(request) === 99 ? { status, body: { message: `refused ${status}` } } : undefined;
      const outbox = open();
      await outbox.start();
      await outbox.enqueue(age('case-1', 5));
      const refused = await outbox.enqueue(age('case-1', 99));
      await outbox.enqueue(age('case-1', 6));
      await settle(outbox);

      expect(server.applied.map(ageOf)).toEqual([5, 6]);
      expect(server.requests.filter((r) => r.key === refused.key)).toHaveLength(1); // not retried
      const rejected = await outbox.listRejected();
      expect(rejected).toEqual([expect.objectContaining({ key: refused.key, status, message: `refused ${status}` })]);
      expect(seen).toContainEqual(
        expect.objectContaining({
          type: 'rejected',
          mutation: expect.objectContaining({ key: refused.key, message: `refused ${status}` }),
        }),
      );
      expect(outbox.snapshot().rejected).toHaveLength(1);
      expect(await outbox.pendingCount()).toBe(1); // still on the device, so logout warns
    },
  );

  it.each([408, 429, 500, 502, 503, 504])('%i keeps the change and retries it', async (status) => {
    const { open, server, fireNextTimer } = setup();
    let failures = 0;
    server.reply = () => (failures++ < 2 ? { status, body: {} } : undefined);
    const outbox = open();
    await outbox.start();
    const { key } = await outbox.enqueue(age('case-1', 7));
    await settle(outbox);
    expect(await outbox.listPending()).toEqual([
      expect.objectContaining({ key, attempts: 1, lastError: `HTTP ${status}` }),
    ]);
    await fireNextTimer(outbox);
    await fireNextTimer(outbox);
    expect(server.requests.map((r) => r.key)).toEqual([key, key, key]);
    expect(server.applied).toHaveLength(1);
    expect(await outbox.listRejected()).toEqual([]);
  });

  it('a rejected change can be put back at its place, or discarded on the crew’s decision', async () => {
    const { open, server } = setup();
    let refuse = true;
    server.reply = (request) =>
      refuse && ageOf(request) === 99 ? { status: 422, body: { message: 'age is above the maximum' } } : undefined;
    const outbox = open();
    await outbox.start();
    const refused = await outbox.enqueue(age('case-1', 99));
    const refusedToo = await outbox.enqueue(age('case-2', 99));
    await settle(outbox);
    expect(await outbox.pendingCount()).toBe(2);

    refuse = false;
    await outbox.retryRejected(refused.key);
    await settle(outbox);
    expect(server.applied.map((r) => r.key)).toEqual([refused.key]);

    await outbox.discardRejected(refusedToo.key);
    await settle(outbox);
    expect(await outbox.pendingCount()).toBe(0);
    expect(outbox.snapshot().rejected).toEqual([]);
  });

  it('obeys Retry-After', async () => {
    const { open, server, time } = setup();
    server.reply = (_request, attempt) => (attempt === 1 ? { status: 429, body: {}, retryAfterMs: 20_000 } : undefined);
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(age('case-1', 8));
    await settle(outbox);
    expect(time.nextTimerAt()! - time.clock.now()).toBe(20_000);
  });
});

describe('back-off', () => {
  it('grows, never retries early, and is capped at 30 s', async () => {
    const { open, server, time } = setup();
    server.reply = () => ({ status: 503, body: {} });
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(age('case-1', 9));
    await settle(outbox);

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 9; attempt += 1) {
      const delay = time.nextTimerAt()! - time.clock.now();
      delays.push(delay);
      time.advance(delay - 1);
      await settle(outbox);
      expect(server.requests).toHaveLength(attempt); // not a millisecond early
      time.advance(1);
      await settle(outbox);
      expect(server.requests).toHaveLength(attempt + 1);
    }
    // random() = 0.5 → three quarters of 1, 2, 4, 8, 16 s, then of the 30 s cap.
    expect(delays).toEqual([750, 1_500, 3_000, 6_000, 12_000, 22_500, 22_500, 22_500, 22_500]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(RETRY_CAP_MS);
  });

  it('retries media every 2 s (spec §9), whatever the number of attempts', async () => {
    const { open, server, seen, fireNextTimer } = setup();
    server.reply = () => 'network-error';
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(caseMutations.media('case-1', 'ekg', new Blob([new Uint8Array([1])], { type: 'image/jpeg' })));
    await settle(outbox);
    for (let i = 0; i < 5; i += 1) await fireNextTimer(outbox);
    const waits = seen.flatMap((e) => (e.type === 'retrying' ? [e.mutation.nextAttemptAt] : []));
    expect(waits).toHaveLength(6);
    expect(waits.slice(1).map((at, i) => at - waits[i]!)).toEqual([2_000, 2_000, 2_000, 2_000, 2_000]);
  });
});

describe('placeholder ids', () => {
  it('sends nothing of a placeholder case before its create succeeds, then sends all of it to the real id, in order', async () => {
    const { open, server, seen, goOnline, fireNextTimer } = setup();
    server.offline = true;
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(
      caseMutations.createCase(PLACEHOLDER, {
        emsAgency: 'agency-1',
        truck: 'truck-1',
        beganAt: '2026-11-21T23:00:00.000Z',
      }),
    );
    await outbox.enqueue(caseMutations.patchCase(PLACEHOLDER, { gender: 'F' }));
    await outbox.enqueue(caseMutations.addTag(PLACEHOLDER, 'tag-7'));
    await outbox.enqueue(caseMutations.location(PLACEHOLDER, { latitude: 42.1, longitude: -71.2 }));
    await outbox.enqueue(
      caseMutations.tagValues(PLACEHOLDER, 'tag-7', {
        fields: [{ key: 'lkw', value: '2026-11-21T22:10:00.000Z', name: 'Last known well', type: 'datetime' }],
      }),
    );
    await outbox.enqueue(caseMutations.removeTag(PLACEHOLDER, 'tag-7'));
    await outbox.enqueue(age('case-other', 44));

    // The server is slow to create the case: two 503s. The other case is not held up by it.
    let createAttempts = 0;
    server.reply = (request) =>
      request.path.startsWith('/v4/twiageCases?') && ++createAttempts <= 2 ? { status: 503, body: {} } : undefined;
    await goOnline(outbox);
    expect(server.applied.map((r) => r.path)).toEqual(['/v4/twiageCases/case-other']);
    await fireNextTimer(outbox);
    await fireNextTimer(outbox);

    // Never a placeholder in a path except the create's own query.
    expect(
      server.requests.filter((r) => r.path.includes(PLACEHOLDER)).every((r) => r.path.startsWith('/v4/twiageCases?')),
    ).toBe(true);
    expect(server.applied.filter((r) => !r.path.endsWith('case-other')).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v4/twiageCases?placeholderId=${PLACEHOLDER}`,
      'PATCH /v4/twiageCases/case-1',
      'POST /v4/twiageCases/case-1/tags?tagId=tag-7',
      'POST /v4/twiageCases/case-1/locationUpdates',
      'PATCH /v4/twiageCases/case-1/tags/tag-7/values',
      'DELETE /v4/twiageCases/case-1/tags?tagId=tag-7',
    ]);
    expect(seen).toContainEqual(
      expect.objectContaining({
        type: 'placeholder-resolved',
        placeholderId: PLACEHOLDER,
        caseId: 'case-1',
        caseNumber: 'R-1',
        channelId: 'case:case-1',
      }),
    );
    expect(outbox.snapshot().byCase).toEqual({});

    // The UI had not caught up: a change still addressed to the placeholder goes to the real case.
    await outbox.enqueue(caseMutations.patchCase(PLACEHOLDER, { destinationHospital: 'hospital-3' }));
    await settle(outbox);
    expect(server.applied.at(-1)).toMatchObject({
      path: '/v4/twiageCases/case-1',
      json: { destinationHospital: 'hospital-3' },
    });
  });

  it('rewrites in one durable step: after a reload the rest goes to the real id and the create is not sent again', async () => {
    const { open, server } = setup();
    server.reply = (request) => (request.path === '/v4/twiageCases/case-1' ? { status: 503, body: {} } : undefined);
    const firstPage = open();
    await firstPage.enqueue(
      caseMutations.createCase(PLACEHOLDER, { emsAgency: 'a', truck: 't', beganAt: '2026-11-21T23:00:00.000Z' }),
    );
    await firstPage.enqueue(caseMutations.patchCase(PLACEHOLDER, { gender: 'M' }));
    await firstPage.start();
    await settle(firstPage);
    await firstPage.stop();
    expect(await firstPage.listPending()).toEqual([
      expect.objectContaining({ caseId: 'case-1', placeholderId: PLACEHOLDER, path: '/v4/twiageCases/case-1' }),
    ]);

    server.reply = () => undefined;
    const secondPage = open();
    // The app saved the case as the placeholder; the new page learns its real id from the outbox.
    expect(await secondPage.resolvePlaceholder(PLACEHOLDER)).toMatchObject({ caseId: 'case-1', caseNumber: 'R-1' });
    expect(await secondPage.resolvePlaceholder('placeholder-0')).toBeNull();
    await secondPage.start();
    await settle(secondPage);
    expect(server.requests.filter((r) => r.path.startsWith('/v4/twiageCases?'))).toHaveLength(1);
    expect(server.applied.map((r) => r.path)).toEqual([
      `/v4/twiageCases?placeholderId=${PLACEHOLDER}`,
      '/v4/twiageCases/case-1',
    ]);
  });

  it('rewrites the placeholder inside a body that names its case', async () => {
    const { open, server } = setup();
    const outbox = open();
    await outbox.enqueue(
      caseMutations.createCase(PLACEHOLDER, { emsAgency: 'a', truck: 't', beganAt: '2026-11-21T23:00:00.000Z' }),
    );
    await outbox.enqueue({
      caseId: PLACEHOLDER,
      kind: 'chat',
      method: 'POST',
      path: `/notification/twiage-cases/${PLACEHOLDER}/chat-messages`,
      body: { caseId: PLACEHOLDER, message: 'ETA 10' },
    });
    await outbox.start();
    await settle(outbox);
    expect(server.applied.at(-1)).toMatchObject({
      path: '/notification/twiage-cases/case-1/chat-messages',
      json: { caseId: 'case-1', message: 'ETA 10' },
    });
  });

  it('keeps the changes of a case whose create was refused, unsent and shown as blocked', async () => {
    const { open, server } = setup();
    server.reply = (request) =>
      request.path.startsWith('/v4/twiageCases?')
        ? { status: 400, body: { message: 'truck is not in this team' } }
        : undefined;
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(
      caseMutations.createCase(PLACEHOLDER, { emsAgency: 'a', truck: 't', beganAt: '2026-11-21T23:00:00.000Z' }),
    );
    await outbox.enqueue(caseMutations.patchCase(PLACEHOLDER, { gender: 'F' }));
    await settle(outbox);
    await outbox.flush();
    expect(server.requests.map((r) => r.path)).toEqual([`/v4/twiageCases?placeholderId=${PLACEHOLDER}`]);
    expect(outbox.snapshot().byCase[PLACEHOLDER]).toMatchObject({ pending: 1, blocked: true });
    expect(await outbox.pendingCount()).toBe(2);

    // Fixed (say the crew picked its truck again): the create goes back in front and the case follows.
    server.reply = () => undefined;
    await outbox.retryRejected((await outbox.listRejected())[0]!.key);
    await settle(outbox);
    expect(server.applied.map((r) => r.path)).toEqual([
      `/v4/twiageCases?placeholderId=${PLACEHOLDER}`,
      '/v4/twiageCases/case-1',
    ]);
  });
});

describe('tabs', () => {
  async function twoTabs(shared: boolean) {
    const { open, server } = setup();
    // The first answer waits (up to 200 ms) until a second request arrives: if the other tab can send
    // while one is in flight, it will have — deterministically, however slow the machine.
    server.latency = async () => {
      for (let waited = 0; server.requests.length < 2 && waited < 200; waited += 5) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const locks = createFakeLocks();
    const tabA = open({ locks: shared ? locks : createFakeLocks() });
    const tabB = open({ locks: shared ? locks : createFakeLocks() });
    for (let i = 1; i <= 12; i += 1) await (i % 2 ? tabA : tabB).enqueue(age(`case-${i % 3}`, i));
    await Promise.all([tabA.start(), tabB.start()]);
    await Promise.all([tabA.flush(), tabB.flush(), tabA.flush(), tabB.flush()]);
    await settle(tabA, tabB);
    return { server, tabA, tabB, locks };
  }

  it('never sends the same mutation from two tabs at once when they share the Web Lock', async () => {
    const { server, tabA, locks } = await twoTabs(true);
    expect(server.applied).toHaveLength(12);
    expect(server.requests).toHaveLength(12); // each key exactly once
    expect(locks.maxHolders).toBe(1);
    expect(await tabA.pendingCount()).toBe(0);
  });

  it('(control) without a shared lock the same schedule does double-send — what the lock prevents', async () => {
    const { server } = await twoTabs(false);
    expect(server.applied).toHaveLength(12);
    expect(server.requests.length).toBeGreaterThan(12);
  });

  it('tells the other tabs, so their counts follow', async () => {
    const { open, server } = setup({ broadcastChannel: `outbox-channel-${databases + 1}` });
    server.offline = true; // so the change stays queued while we look
    const tabA = open();
    const tabB = open();
    await tabB.start();
    await tabA.enqueue(age('case-1', 1)); // tab A not started: nothing goes out
    await vi.waitFor(() => expect(tabB.snapshot().pendingTotal).toBe(1), WAIT);
    expect(server.offlineAttempts).toBe(1); // and tab B, told of it, tried to send it
  });
});

describe('observing and clearing', () => {
  it('snapshot counts per case, knows the oldest change, and notifies on change', async () => {
    const { open, server, time } = setup();
    server.offline = true;
    const outbox = open();
    const changes = vi.fn();
    outbox.subscribeSnapshot(changes);
    await outbox.start();
    const first = await outbox.enqueue(age('case-1', 1));
    time.advance(5_000);
    await outbox.enqueue(age('case-1', 2));
    await outbox.enqueue(age('case-2', 3));
    await settle(outbox);

    const snapshot = outbox.snapshot();
    expect(snapshot).toMatchObject({
      ready: true,
      pendingTotal: 3,
      byCase: { 'case-1': { pending: 2, oldestPendingAt: first.createdAt, blocked: false }, 'case-2': { pending: 1 } },
      oldestPendingAt: first.createdAt,
      held: false,
      online: false,
    });
    expect(pendingAgeMs(snapshot, time.clock.now())).toBe(5_000);
    expect(changes).toHaveBeenCalled();
    expect(outbox.snapshot()).toBe(snapshot); // stable identity while nothing changes
  });

  it('clear() empties the outbox for logout and nothing is sent afterwards', async () => {
    const { open, server, goOnline, seen } = setup();
    server.offline = true;
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(age('case-1', 1));
    await outbox.enqueue(
      caseMutations.media('case-1', 'photo', new Blob([new Uint8Array([9])], { type: 'image/jpeg' })),
    );
    await settle(outbox);
    expect(await outbox.pendingCount()).toBe(2);

    await outbox.clear();
    expect(await outbox.pendingCount()).toBe(0);
    expect(outbox.snapshot().pendingTotal).toBe(0);
    expect(seen.some((e) => e.type === 'cleared')).toBe(true);
    await goOnline(outbox);
    expect(server.requests).toHaveLength(0);
  });
});

describe('encryption at rest', () => {
  it('stores bodies and media sealed with AES-GCM, and sends them in clear', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const { open, server, dbName, goOnline } = setup({ codec: createAesGcmCodec(() => Promise.resolve(key)) });
    server.offline = true;
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(
      caseMutations.dynamicForm('case-1', 'form-1', { fields: [{ key: 'lastName', value: 'Kowalski' }] }),
    );
    await outbox.enqueue(
      caseMutations.media(
        'case-1',
        'id',
        new Blob([new TextEncoder().encode('DRIVER LICENSE KOWALSKI')], { type: 'image/jpeg' }),
      ),
    );
    await settle(outbox);

    const db = await openDB(dbName);
    const raw = JSON.stringify([await db.getAll('pending'), await db.getAll('media')], (_k, v: unknown) =>
      v instanceof ArrayBuffer || ArrayBuffer.isView(v) ? new TextDecoder().decode(v) : v,
    );
    db.close();
    expect(raw).not.toContain('Kowalski');
    expect(raw).not.toContain('KOWALSKI');
    expect(raw).toContain('"sealed":true');

    await goOnline(outbox);
    expect(server.applied[0]!.json).toEqual({ fields: [{ key: 'lastName', value: 'Kowalski' }] });
    expect(new TextDecoder().decode(Uint8Array.from(server.applied[1]!.multipart!.bytes))).toBe(
      'DRIVER LICENSE KOWALSKI',
    );
  });

  it('sets aside, never drops, a change this device can no longer read (its key was replaced)', async () => {
    const keyOf = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const [oldKey, newKey] = await Promise.all([keyOf(), keyOf()]);
    const { open, server } = setup();
    const before = open({ codec: createAesGcmCodec(() => Promise.resolve(oldKey)) });
    const { key } = await before.enqueue(age('case-1', 33));
    await before.enqueue(age('case-1', 34));

    const after = open({ codec: createAesGcmCodec(() => Promise.resolve(newKey)) });
    await after.start();
    await settle(after);
    expect(server.requests).toHaveLength(0);
    expect(await after.listRejected()).toEqual([
      expect.objectContaining({ key, status: 0, message: expect.stringMatching(/cannot be read on this device/) }),
      expect.objectContaining({ status: 0 }),
    ]);
    expect(await after.pendingCount()).toBe(2);
  });
});
