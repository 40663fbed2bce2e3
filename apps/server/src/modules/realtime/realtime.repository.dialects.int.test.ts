/**
 * The channels' log, `appendOnce` (issue 11: the outbox relay's messages share one transaction per
 * batch): on each dialect, every call queued in one turn is stored with distinct, gapless numbers per
 * channel in call order; a key seen twice in a batch, or again later, answers the number it got the
 * first time and stores nothing; two relays (two repositories on the same database, as two processes)
 * storing the same keys at once agree on every number and store each message once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '@inbound/contract';
import { createTestApp, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { createRealtimeRepository } from './realtime.repository.js';

const dialects = await testDialects();
const event = (n: number): RealtimeEvent => ({ type: 'case.updated', data: { n } });

describe.each(dialects)('realtime log appendOnce on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const repository = () => createRealtimeRepository(t.database.db, () => new Date().toISOString());
  const stored = (channel: string) =>
    t.database.db
      .selectFrom('realtime_messages')
      .select(['seq', 'dedupe_key', 'event'])
      .where('channel', '=', channel)
      .orderBy('seq')
      .execute();

  it('numbers one turn of calls in call order per channel; a repeated key answers its first number', async () => {
    const repo = repository();
    const [a, b] = [`case:batch-a-${dialect}`, `hospital:batch-b-${dialect}`];
    const calls: [string, string][] = [
      [a, 'k1'],
      [b, 'k1'],
      [a, 'k2'],
      [a, 'k1'], // the same message twice in one batch
      [b, 'k2'],
      [a, 'k3'],
    ];
    const seqs = await Promise.all(calls.map(([channel, key], i) => repo.appendOnce(channel, event(i), key)));
    expect(seqs).toEqual([1, 1, 2, 1, 2, 3]);
    expect(await repo.head(a)).toBe(3);
    expect(await repo.head(b)).toBe(2);
    const rowsA = await stored(a);
    expect(rowsA.map((row) => [Number(row.seq), row.dedupe_key])).toEqual([
      [1, 'k1'],
      [2, 'k2'],
      [3, 'k3'],
    ]);
    // The first call's message is the one kept for k1.
    expect(JSON.parse(rowsA[0]!.event)).toEqual(event(0));

    // Again later (a relay that ran the events again): the same numbers, nothing stored, the head kept.
    const again = await Promise.all([repo.appendOnce(a, event(9), 'k2'), repo.appendOnce(a, event(9), 'k4')]);
    expect(again).toEqual([2, 4]);
    expect((await stored(a)).length).toBe(4);
    expect(await repo.head(a)).toBe(4);
  });

  it('two relays storing the same keys at once agree on the numbers and store each message once', async () => {
    const [first, second] = [repository(), repository()];
    const channel = `hospital:race-${dialect}`;
    const keys = Array.from({ length: 40 }, (_, i) => `event-${i}`);
    const [one, two] = await Promise.all([
      Promise.all(keys.map((key, i) => first.appendOnce(channel, event(i), key))),
      Promise.all(keys.map((key, i) => second.appendOnce(channel, event(i), key))),
    ]);
    expect(one).toEqual(two);
    const rows = await stored(channel);
    expect(rows.length).toBe(keys.length);
    expect(rows.map((row) => Number(row.seq))).toEqual(keys.map((_, i) => i + 1));
    expect(new Set(one).size).toBe(keys.length);
    expect(await first.head(channel)).toBe(keys.length);
  });
});
