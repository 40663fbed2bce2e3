/**
 * Inbound as `npm start` runs it with WORKERS=2 on PostgreSQL + Redis: two processes behind one port.
 *
 * 1. What crosses processes: a crew's writes answered by either worker reach the ED's live socket; an
 *    upload cut off on one worker is resumed on the other (the tus lock lives in Redis); chat and the
 *    ED's acknowledgement sent through either worker reach the crew's socket.
 * 2. A rolling restart (SIGHUP: each worker replaced, a new one listening before the old one drains)
 *    while crews write and consoles listen: every acknowledged write is in the database and reached
 *    every console, whose channel numbers have no gap. Prints the longest gap a client saw (not asserted:
 *    timing on a shared machine is not a test).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, buildPath, MEDIA_TUS_PATH, REALTIME_CLOSE, routes, ServerFrame } from '@inbound/contract';
import { IDS } from './seed/demo-data.js';
import { call, startCluster, type ClusterServer } from './test/cluster.js';
import { createTestDatabase, testDialects, type TestDatabase } from './test/databases.js';
import { openAuthenticated, type TestSocket } from './modules/realtime/test-client.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOSPITAL = IDS.hospitals.riversideRegional;
const TRUCK = 'truck-riverside-medic-1';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const ready = (await redisReachable()) && (await testDialects()).includes('postgres');
if (!ready) {
  const message = 'PostgreSQL or Redis not reachable: the several-processes tests are skipped';
  if (process.env.CI === 'true') throw new Error(`${message} — but CI=true requires them`);
  console.warn(message);
}

const writeHeaders = (key = randomUUID()) => ({ 'idempotency-key': key, 'created-at': new Date().toISOString() });

describe.skipIf(!ready)('two server processes behind one port (WORKERS=2, PostgreSQL + Redis)', () => {
  let database: TestDatabase;
  let server: ClusterServer;
  const prefix = `inbound-test-${randomBytes(6).toString('hex')}:`;
  const wsUrl = () => `ws://127.0.0.1:${server.port}/realtime`;

  async function signIn(username: string): Promise<string> {
    const res = await call(server, 'POST', routes.signIn.path, {
      body: { username, password: `demo-${username}`, twiageClient: 'ems', platform: 'web' },
    });
    expect(res.status, res.body).toBe(200);
    return res.json<{ authorizationToken: { token: string } }>().authorizationToken.token;
  }

  async function startCase(token: string): Promise<string> {
    const created = await call(server, 'POST', `${routes.createCase.path}?placeholderId=p-${randomUUID()}`, {
      token,
      headers: writeHeaders(),
      body: { emsAgency: IDS.agencies.riverside, truck: TRUCK, beganAt: new Date().toISOString() },
    });
    expect(created.status, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    const destination = await call(server, 'PATCH', buildPath(routes.patchCase.path, { id }), {
      token,
      headers: writeHeaders(),
      body: { destinationHospital: HOSPITAL },
    });
    expect(destination.status, destination.body).toBe(200);
    return id;
  }

  async function subscribe(socket: TestSocket, channel: string, lastSeq?: number) {
    socket.send({ type: 'subscribe', channel, ...(lastSeq === undefined ? {} : { lastSeq }) });
    await socket.next('subscribed', (frame) => frame.channel === channel, 15_000);
  }

  const messages = (socket: TestSocket, type: string) =>
    socket.frames.filter(
      (frame): frame is Extract<ServerFrame, { type: 'message' }> =>
        frame.type === 'message' && frame.event.type === type,
    );

  /** Waits (by polling what the socket queued) until `done` holds. */
  async function until(done: () => boolean, what: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { migrate: false });
    server = await startCluster({
      WORKERS: '2',
      DATABASE_URL: database.location,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.destroy();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('writes, a resumed upload, chat and an acknowledgement cross the two processes', async () => {
    const [crew, ed] = [await signIn('medic1'), await signIn('ed1')];
    const caseId = await startCase(crew);
    const console_ = await openAuthenticated(wsUrl(), ed);
    const crewSocket = await openAuthenticated(wsUrl(), crew);
    await subscribe(console_, `hospital:${HOSPITAL}`);
    await subscribe(crewSocket, `case:${caseId}`);

    // Crew writes over fresh connections: the round robin sends them to both workers.
    const written: { eventId: string; worker: string | null }[] = [];
    for (let age = 30; age < 36; age++) {
      const res = await call(server, 'PATCH', buildPath(routes.patchCase.path, { id: caseId }), {
        token: crew,
        headers: writeHeaders(),
        body: { age, agePeriod: 3 },
      });
      expect(res.status, res.body).toBe(200);
      written.push({ eventId: res.json<{ event: { id: string } }>().event.id, worker: res.worker });
    }
    expect(new Set(written.map((w) => w.worker)).size).toBe(2);
    const seenByConsole = () =>
      new Set(messages(console_, 'case.updated').map((m) => (m.event.data as { event?: { id: string } }).event?.id));
    await until(() => written.every((w) => seenByConsole().has(w.eventId)), 'the console to see every write');

    // An upload cut off on one worker, resumed on the other.
    const dir = mkdtempSync(path.join(tmpdir(), 'inbound-jpeg-'));
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240',
      '-frames:v',
      '1',
      path.join(dir, 'p.jpg'),
    ]);
    const jpeg = readFileSync(path.join(dir, 'p.jpg'));
    rmSync(dir, { recursive: true, force: true });
    const meta = Object.entries({ caseId, type: 'photo', idempotencyKey: randomUUID() })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await call(server, 'POST', MEDIA_TUS_PATH, {
      token: crew,
      headers: { ...tus, 'upload-length': String(jpeg.length), 'upload-metadata': meta },
    });
    expect(created.status, created.body).toBe(201);
    const location = String(created.headers.location);
    const firstWorker = await new Promise<string>((resolve, reject) => {
      const url = new URL(location, server.url);
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'PATCH',
        agent: false,
        headers: {
          authorization: authorizationHeader(crew),
          ...tus,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(jpeg.length),
        },
      });
      req.on('error', () => undefined);
      req.on('close', () => undefined);
      // Half the bytes, then the link dies mid-body (a tunnel); which worker had it is asked below.
      req.write(jpeg.subarray(0, Math.floor(jpeg.length / 2)), () => setTimeout(() => req.destroy(), 400));
      req.on('response', (res) => resolve(String(res.headers['inbound-worker'])));
      setTimeout(() => resolve('unknown'), 1_500);
      void reject;
    });
    // HEAD + PATCH over one connection, on a worker other than the one the cut PATCH reached last.
    let resumed = false;
    for (let attempt = 0; attempt < 10 && !resumed; attempt++) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const head = await call(server, 'HEAD', location, { token: crew, headers: tus, agent });
      expect(head.status).toBe(200);
      const otherWorker = head.worker !== firstWorker && head.worker !== written.at(-1)?.worker;
      if (otherWorker || attempt >= 2) {
        const offset = Number(head.headers['upload-offset']);
        const rest = await call(server, 'PATCH', location, {
          token: crew,
          headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          raw: jpeg.subarray(offset),
          agent,
        });
        expect([200, 204], rest.body).toContain(rest.status);
        resumed = true;
      }
      agent.destroy();
    }
    expect(resumed).toBe(true);
    const list = await call(server, 'GET', buildPath(routes.listMedia.path, { id: caseId }), { token: crew });
    expect(list.json<{ uploads?: unknown[] } | unknown[]>()).toBeTruthy();
    expect(list.body).toContain('photo');

    // Chat from the ED through both workers reaches the crew's socket; so does the acknowledgement.
    const sent: { id: string; worker: string | null }[] = [];
    for (let n = 0; n < 4; n++) {
      const res = await call(server, 'POST', buildPath(routes.postChatMessage.path, { id: caseId }), {
        token: ed,
        headers: writeHeaders(),
        body: {
          clientCreatedAt: new Date().toISOString(),
          deviceId: 'console-test',
          message: `Bay 3 is ready (${n})`,
          timestamp: new Date().toISOString(),
          source: 'web_hospital',
          senderOrganization: 'Riverside Regional',
        },
      });
      expect(res.status, res.body).toBe(201);
      sent.push({ id: res.json<{ _id: string }>()._id, worker: res.worker });
    }
    expect(new Set(sent.map((s) => s.worker)).size).toBe(2);
    const chatSeen = () =>
      new Set(messages(crewSocket, 'chat.message').map((m) => (m.event.data as { _id: string })._id));
    await until(() => sent.every((s) => chatSeen().has(s.id)), 'the crew to see every chat message');

    const before = messages(crewSocket, 'case.updated').length;
    const ack = await call(server, 'POST', buildPath(routes.acknowledgeCase.path, { id: HOSPITAL, caseId }), {
      token: ed,
      headers: writeHeaders(),
    });
    expect(ack.status, ack.body).toBe(200);
    await until(() => messages(crewSocket, 'case.updated').length > before, 'the crew to hear of the acknowledgement');
    console_.close();
    crewSocket.close();
  }, 120_000);

  it('answers /metrics for the whole server, whichever worker the scrape lands on', async () => {
    const unmatched = async () => {
      const res = await call(server, 'GET', '/metrics');
      expect(res.status, res.body).toBe(200);
      const line = res.body
        .split('\n')
        .find(
          (l) =>
            l.startsWith('inbound_http_requests_total{') &&
            l.includes('route="(unmatched)"') &&
            l.includes('status="404"'),
        );
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    const before = await unmatched();
    const workers = new Set<string | null>();
    for (let i = 0; i < 20; i++) {
      const res = await call(server, 'GET', `/v4/no-such-route/${i}`);
      expect(res.status).toBe(404);
      workers.add(res.worker);
    }
    // Both workers answered some: a per-worker /metrics would count about half of them.
    expect(workers.size).toBe(2);
    expect((await unmatched()) - before).toBe(20);
    expect(await unmatched()).toBe(before + 20);
  });

  it('a rolling restart of both workers while crews write and consoles listen: 0 lost, 0 gaps', async () => {
    const CREWS = 8;
    const crewTokens = await Promise.all(Array.from({ length: CREWS }, () => signIn('medic1')));
    const caseIds = await Promise.all(crewTokens.map((token) => startCase(token)));
    const edTokens = [await signIn('ed1'), await signIn('ed1')];

    // Consoles that behave as the real one: on any close, reconnect (at once after "restart") and
    // resubscribe from the last number seen.
    const consoles = edTokens.map((token) => {
      const state = {
        seqs: [] as number[],
        eventIds: new Set<string>(),
        restarts: 0,
        longestGapMs: 0,
        socket: null as TestSocket | null,
        stopped: false,
      };
      const channel = `hospital:${HOSPITAL}`;
      const connect = async (): Promise<void> => {
        const lost = Date.now();
        for (;;) {
          try {
            const socket = await openAuthenticated(wsUrl(), token);
            socket.socket.on('message', (data: Buffer) => {
              const frame = ServerFrame.parse(JSON.parse(data.toString('utf8')));
              if (frame.type !== 'message' || frame.channel !== channel) return;
              if (state.seqs.includes(frame.seq)) return;
              state.seqs.push(frame.seq);
              const id = (frame.event.data as { event?: { id: string } }).event?.id;
              if (id) state.eventIds.add(id);
            });
            await subscribe(socket, channel, state.seqs.length ? Math.max(...state.seqs) : undefined);
            state.longestGapMs = Math.max(state.longestGapMs, Date.now() - lost);
            state.socket = socket;
            void socket.closed.then(({ code }) => {
              if (state.stopped) return;
              if (code === REALTIME_CLOSE.restart) state.restarts++;
              void connect();
            });
            return;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      };
      return { state, start: connect };
    });
    await Promise.all(consoles.map((c) => c.start()));
    consoles.forEach((c) => (c.state.longestGapMs = 0));

    // Crews: each writes to its own case over a kept-alive connection, as a browser does, and retries
    // the same write (same Idempotency-Key) on a refused or broken request, as the outbox does.
    const acknowledged: string[] = [];
    let longestCrewWaitMs = 0;
    let retries = 0;
    let writing = true;
    const crews = crewTokens.map(async (token, index) => {
      let agent = new Agent({ keepAlive: true, maxSockets: 1 });
      let age = 1;
      while (writing) {
        const key = randomUUID();
        const began = Date.now();
        for (;;) {
          try {
            const res = await call(server, 'PATCH', buildPath(routes.patchCase.path, { id: caseIds[index]! }), {
              token,
              headers: writeHeaders(key),
              body: { age: (age % 99) + 1, agePeriod: 3 },
              agent,
            });
            if (res.status === 200) {
              acknowledged.push(res.json<{ event: { id: string } }>().event.id);
              break;
            }
            expect(res.status, res.body).toBeGreaterThanOrEqual(500); // only "not now" is retried
          } catch {
            // The connection died with its worker: a new one goes to a live worker.
          }
          retries++;
          agent.destroy();
          agent = new Agent({ keepAlive: true, maxSockets: 1 });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        longestCrewWaitMs = Math.max(longestCrewWaitMs, Date.now() - began);
        age++;
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      agent.destroy();
    });

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const replacedBefore = server.output.filter((line) => /replaced/.test(line)).length;
    server.rollingRestart();
    await server.waitForLine(/worker \d+ replaced/, replacedBefore + 2, 90_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    writing = false;
    await Promise.all(crews);

    // 0 lost: every acknowledged write is in the database …
    const client = new (await import('pg')).default.Client({ connectionString: database.location });
    await client.connect();
    const found = await client.query<{ n: string }>(
      'select count(*) as n from case_events where id = any($1::text[])',
      [acknowledged],
    );
    await client.end();
    expect(Number(found.rows[0]!.n)).toBe(acknowledged.length);
    // … and reached every console, whose channel numbers run without a gap.
    for (const { state } of consoles) {
      await until(() => acknowledged.every((id) => state.eventIds.has(id)), 'every console to see every write', 30_000);
      const sorted = [...state.seqs].sort((a, b) => a - b);
      const gaps = sorted.filter((seq, i) => i > 0 && seq !== sorted[i - 1]! + 1);
      expect(gaps).toEqual([]);
      state.stopped = true;
      state.socket?.close();
    }
    expect(consoles.every((c) => c.state.restarts >= 1)).toBe(true);
    console.info(
      `rolling restart of 2 workers: ${acknowledged.length} writes acknowledged, all in the database and on both consoles; ` +
        `${retries} retried requests; longest crew wait for an answer ${longestCrewWaitMs} ms; longest console gap ` +
        `${Math.max(...consoles.map((c) => c.state.longestGapMs))} ms (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
    );
  }, 240_000);
});
