/**
 * Real-time frames, fuzzed in process (issue 17, "every real-time frame"): 20,000 hostile frames per run
 * through the gateway's real Connection (its size and rate limits, text rule, schema, auth and
 * subscription paths), channel authorisers and channel streams, over an in-memory socket — so the
 * count is large and the run takes a second or two, with no network timing to fail on. The wire test in
 * fuzz.dialects.int.test.ts keeps sending 200 frames over a real socket on each database.
 *
 * Every frame must end in an answer, a close or (for a valid frame) its effect; nothing is logged as an
 * error, nothing throws, and afterwards a fresh connection still authenticates and answers a ping.
 */
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorizationHeader } from '@inbound/contract';
import type { Principal } from '../auth/principal.js';
import { createChannelAuthorizers } from './channel-authorizers.js';
import { createChannelStreams } from './channel-streams.js';
import { Connection } from './connection.js';

const FRAMES = Number(process.env.FUZZ_FRAMES ?? 20_000);
const GOOD_TOKEN = 'good-token';
const principal: Principal = {
  userId: 'user-medic1',
  username: 'medic1',
  sessionId: 's1',
  roles: ['crew'],
  memberOf: [],
  administers: [],
  teamIds: [],
  edHospitalIds: [],
};

/** A socket as `ws` gives it to the gateway: events in, frames and closes out. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  send(text: string) {
    this.sent.push(text);
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close');
  }
  terminate() {
    this.readyState = 3;
  }
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '', ' ', 'x'.repeat(5_000), 'case:c1', 'case:c2', 'user:user-medic1'),
);
const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e308, -1, 0, 2 ** 53, 1.5));
const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const frame = fc.oneof(
  hostileValue.map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        type: fc.constantFrom('subscribe', 'unsubscribe', 'ping', 'auth', 'ack', 'typing'),
        channel: fc.oneof(hostileString, fc.constantFrom('case:c1', 'case:c2', 'hospital:h1')),
        lastSeq: hostileNumber,
        token: fc.oneof(hostileString, fc.constant(GOOD_TOKEN)),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 100 }),
  fc.constant('{"type":"ping"}'),
  fc.constant(`{"type":"auth","token":"${GOOD_TOKEN}"}`),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

describe('real-time frames, fuzzed in process', () => {
  it(`answers ${FRAMES} hostile frames with an answer, a close or their effect; nothing logged, nothing thrown`, async () => {
    const errors: string[] = [];
    const authorizers = createChannelAuthorizers();
    authorizers.register('case', (_, id) => Promise.resolve(id === 'c1'));
    const streams = createChannelStreams({
      head: () => Promise.resolve(0),
      after: () => Promise.resolve([]),
      listen: () => Promise.resolve(),
      unlisten: () => Promise.resolve(),
      onError: (error) => errors.push(String(error)),
    });
    const open = () => {
      const socket = new FakeSocket();
      const connection = new Connection(socket as never, {
        authenticate: (header) =>
          header === authorizationHeader(GOOD_TOKEN)
            ? Promise.resolve(principal)
            : Promise.reject(new Error('bad token')),
        authorizers,
        streams,
        heartbeatMs: 30_000,
        maxFrameBytes: 4_096,
        maxMessagesPerSecond: 1_000_000,
        onAuthenticated: () => undefined,
        onClosed: () => undefined,
        onAuthorizing: () => undefined,
        logError: (error, what) => errors.push(`${what}: ${String(error)}`),
      });
      return { socket, connection };
    };

    const frames = fc.sample(frame, { numRuns: FRAMES, seed: 17 });
    let current = open();
    let closes = 0;
    let answers = 0;
    const sockets: FakeSocket[] = [current.socket];
    for (const [index, text] of frames.entries()) {
      if (current.socket.readyState !== 1) {
        closes += 1;
        current = open();
        sockets.push(current.socket);
      }
      current.socket.emit('message', Buffer.from(text, 'utf8'), false);
      // Let the auth and subscription checks (promises) run between frames, as the event loop would.
      if (index % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setImmediate(resolve));
    for (const socket of sockets) answers += socket.sent.length;

    expect(errors).toEqual([]);
    expect(closes).toBeGreaterThan(0);
    expect(answers).toBeGreaterThan(FRAMES / 10);
    for (const socket of sockets)
      for (const sent of socket.sent) expect(() => JSON.parse(sent) as unknown).not.toThrow();

    // The gateway still works: a fresh connection authenticates and answers a ping.
    const fresh = open();
    fresh.socket.emit('message', Buffer.from(`{"type":"auth","token":"${GOOD_TOKEN}"}`), false);
    await new Promise((resolve) => setImmediate(resolve));
    fresh.socket.emit('message', Buffer.from('{"type":"ping"}'), false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fresh.socket.sent.map((text) => (JSON.parse(text) as { type: string }).type)).toEqual(['ready', 'pong']);
    for (const socket of sockets) socket.close(1000);
    fresh.socket.close(1000);
  });
});
