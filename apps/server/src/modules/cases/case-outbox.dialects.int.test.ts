/**
 * Issue 10 item 3: a case change is announced after its commit, never lost. The first server process
 * commits case changes and dies before announcing them (it never relays its outbox: `relayOutbox:
 * false`); the process that runs next on the same database — after a restart, or another process (on
 * PostgreSQL with the Redis broker, as in production with several processes) — announces them, and a
 * crew subscribing with `lastSeq: 0` gets each change once, in order. An announcement made twice is
 * stored once, under the same channel sequence number.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChannelMessage, type ServerFrame } from '@inbound/contract';
import { buildApp } from '../../app.js';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, testConfig, type TestApp } from '../../test/app.js';
import { postCrewChat, published, RIVERSIDE_TRUCK, setDestination, startCase } from '../../test/crew-api.js';
import { testDialects } from '../../test/databases.js';
import { openAuthenticated, type TestSocket } from '../realtime/test-client.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const dialects = await testDialects();

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(dialects)('case outbox on %s', (dialect) => {
  const prefix = `inbound-test-${randomBytes(6).toString('hex')}:`;
  // PostgreSQL runs as production does with several processes: the Redis broker between them.
  const env: Record<string, string> = dialect === 'postgres' ? { REDIS_URL, REDIS_KEY_PREFIX: prefix } : {};
  let killed: TestApp;
  let next: FastifyInstance | null = null;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    killed = await createTestApp({ dialect, env, relayOutbox: false });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await next?.close();
    await killed.close();
    if (dialect === 'postgres') {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('announces what a process committed and did not publish, once, when the next process runs', async () => {
    const medic1 = await killed.signIn('medic1');
    const { id } = await startCase(killed, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(killed, medic1, id, IDS.hospitals.riversideRegional);
    // A chat message is not a case event; its `chat.message` takes the same outbox.
    const chat = await postCrewChat(killed, medic1, id, 'ETA 5');
    expect(chat.statusCode, chat.body).toBe(201);
    // Committed, not announced: the process "dies" here (it never relays).
    const pending = await killed.database.db.selectFrom('case_outbox').selectAll().where('case_id', '=', id).execute();
    expect(pending.map((row) => Number(row.seq))).toEqual([1, 2]);
    const pendingMessages = await killed.database.db
      .selectFrom('case_outbox_messages')
      .selectAll()
      .where('case_id', '=', id)
      .execute();
    expect(pendingMessages).toHaveLength(1);
    expect(await published(killed, `case:${id}`)).toEqual([]);
    // The operator sees the stuck announcements in the metrics.
    const metrics = await killed.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^inbound_outbox_pending\{[^}]*\} 3$/m);

    next = await buildApp(testConfig(env), { database: killed.database, clock: killed.clock });
    await next.listen({ port: 0, host: '127.0.0.1' });
    const socket = await openAuthenticated(
      `ws://127.0.0.1:${(next.server.address() as AddressInfo).port}/realtime`,
      medic1,
    );
    sockets.push(socket);
    socket.send({ type: 'subscribe', channel: `case:${id}`, lastSeq: 0 });
    const frames: Extract<ServerFrame, { type: 'message' }>[] = [];
    for (let i = 0; i < 3; i++) frames.push(await socket.next('message', undefined, 20_000));
    const messages = frames.map((frame) => parseChannelMessage('case', frame.event));
    expect(frames.map((frame) => frame.seq)).toEqual([1, 2, 3]);
    expect(
      messages.map((m) => {
        if (m?.type === 'case.updated') return `${m.data.event.seq}:${m.data.event.type}`;
        return m?.type === 'consult.updated' ? `${m.type}:${m.data.consult.caseId}` : `${m?.type}:${m?.data.caseId}`;
      }),
    ).toEqual(['1:caseStarted', '2:hospital', `chat.message:${id}`]);
    expect(messages[2]?.type === 'chat.message' && messages[2].data.content).toBe('ETA 5');

    // The destination's board got the card, and the outbox is empty.
    const board = await waitFor(
      () => published(killed, `hospital:${IDS.hospitals.riversideRegional}`),
      (events) => events.some((e) => parseChannelMessage('hospital', e)?.type === 'case.updated'),
    );
    const cardMessage = board.map((e) => parseChannelMessage('hospital', e)).find((m) => m?.type === 'case.updated');
    expect(cardMessage?.type === 'case.updated' && cardMessage.data.card?.id).toBe(id);
    await waitFor(
      () => killed.database.db.selectFrom('case_outbox').selectAll().where('case_id', '=', id).execute(),
      (rows) => rows.length === 0,
    );
    await waitFor(
      () => killed.database.db.selectFrom('case_outbox_messages').selectAll().where('case_id', '=', id).execute(),
      (rows) => rows.length === 0,
    );
    expect(await published(killed, `case:${id}`)).toHaveLength(3);
  });

  it('stores a message published twice with one dedupe key once, under one sequence number', async () => {
    const app = next ?? killed.app;
    const channel = `case:${randomBytes(4).toString('hex')}`;
    const event = { type: 'test', data: 1 };
    const first = await app.realtime.publishOnce(channel, event, 'event-1');
    const again = await app.realtime.publishOnce(channel, event, 'event-1');
    const other = await app.realtime.publishOnce(channel, event, 'event-2');
    expect(again.seq).toBe(first.seq);
    expect(other.seq).toBe(first.seq + 1);
    expect(await published(killed, channel)).toHaveLength(2);
  });
});
