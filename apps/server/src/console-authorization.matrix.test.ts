/**
 * Issue 5, "Tests": the authorisation matrix of the hospital console. Every API call the console makes
 * (grep `api('` in apps/hospital/src), and the calls it makes without the API client (the media files
 * a case detail plays), asked by every kind of caller; each cell is the status the caller must get.
 *
 * Callers:
 * - `ed`      ed1, ED staff of Riverside Regional — the case's destination: allowed;
 * - `edOther` ED staff of St. Mary's: 403 (another hospital's staff learn nothing of Riverside's cases);
 * - `crew`    medic1, the case's own crew: 403, except where the call is legitimately theirs too
 *             (their case's media and chat; the statuses of a hospital their agency delivers to);
 * - `admin`   the organisation admin, on no hospital's staff list. Policy: may act FOR a hospital
 *             (statuses, broadcasts, reading the hospital) but reads NO patient data — the board, case
 *             details, media and chat are for the destination's ED staff only (HIPAA minimum necessary);
 * - `none`    no token: 401;
 * - `forged`  a token with ed1's claims signed with another key, and one with `alg: none`: 401.
 *
 * The console's live subscriptions (CONSOLE_CHANNELS) are checked the same way over a real /realtime
 * socket: `subscribed` or `refused`; forged tokens are closed with 4401 before any subscription.
 *
 * To add a call: add a row to CONSOLE_CALLS (the path from the contract's route table, so a renamed
 * route breaks here). The last test fails when a hospital-scoped route of the contract has no row.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, buildPath, REALTIME_CLOSE, routes, type RouteName } from '@inbound/contract';
import { openAuthenticated, openSocket, type TestSocket } from './modules/realtime/test-client.js';
import { IDS } from './seed/demo-data.js';
import { ACTIVATION_CALLS } from './modules/activation/activation.matrix-rows.js';
import { CHARGE_NURSE_CALLS } from './modules/charge-nurse/charge-nurse.matrix-rows.js';
import { CONSULT_CALLS, CONSULT_CHANNELS } from './modules/consults/consults.matrix-rows.js';
import { createTestApp, type TestApp } from './test/app.js';
import { addUser, CLIENT_TIME, RIVERSIDE_TRUCK, send, setDestination, signInAll, startCase } from './test/crew-api.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const ST_MARYS = IDS.hospitals.stMarys;

export type Caller = 'ed' | 'edOther' | 'crew' | 'admin' | 'none' | 'forged';
const CALLERS: readonly Caller[] = ['ed', 'edOther', 'crew', 'admin', 'none', 'forged'];

/** What the rows can refer to: the Riverside case (with a photo and a crew message) and the test app. */
export interface MatrixFixture {
  t: TestApp;
  hospitalId: string;
  caseId: string;
  uploadId: string;
  mediaFileName: string;
  crewMessageId: string;
  /** ed1's token, for the set-ups a row needs (e.g. a status to clear). */
  edToken: string;
}

export interface MatrixRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
}

export interface MatrixRow {
  /** The contract's route name, or a name for a call outside the route table. */
  call: RouteName | `file:${string}`;
  /** Builds the request; may prepare what the call needs first (it runs once per caller). */
  request: (f: MatrixFixture) => Promise<MatrixRequest> | MatrixRequest;
  /** The status each caller gets (forged and none are always 401, so they may be left out). */
  expect: Partial<Record<Caller, number>> & Record<'ed' | 'edOther' | 'crew' | 'admin', number>;
  /** Why a caller other than ED staff is allowed, when one is. */
  why?: string;
}

const path = <N extends RouteName>(name: N, params: Record<string, string>) => buildPath(routes[name].path, params);
const get = (name: RouteName, params: Record<string, string>): MatrixRequest => ({
  method: 'GET',
  url: path(name, params),
});

/** Board reads and writes: the destination's ED staff only. */
const ED_ONLY = { ed: 200, edOther: 403, crew: 403, admin: 403 } as const;

/** A new Riverside case of medic1's (arrival and diversion change a case for good: one per caller). */
async function freshCase(f: MatrixFixture): Promise<string> {
  const crew = await f.t.signIn('medic1');
  const { id } = await startCase(f.t, crew, IDS.agencies.riverside, RIVERSIDE_TRUCK);
  await setDestination(f.t, crew, id, f.hospitalId);
  return id;
}

async function newStatus(f: MatrixFixture): Promise<string> {
  const res = await send(f.t, 'POST', path('setHospitalStatus', { id: f.hospitalId }), f.edToken, {
    body: { status: `CT down ${randomUUID().slice(0, 8)}`, priority: 'urgent' },
  });
  if (res.statusCode !== 201) throw new Error(`status set-up failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

export const CONSOLE_CALLS: MatrixRow[] = [
  // The signed-in user and the hospitals they staff (the board's header).
  {
    call: 'me',
    request: () => get('me', {}),
    expect: { ed: 200, edOther: 200, crew: 200, admin: 200 },
    why: 'everyone reads their own account',
  },
  {
    call: 'hospital',
    request: (f) => get('hospital', { id: f.hospitalId }),
    expect: { ed: 200, edOther: 403, crew: 200, admin: 200 },
    why: 'crews of agencies delivering to it choose it as destination; admins manage it',
  },
  {
    call: 'consoleSettings',
    request: () => get('consoleSettings', {}),
    expect: { ed: 200, edOther: 200, crew: 200, admin: 200 },
    why: 'the map tile address: no patient or hospital data, any signed-in user',
  },
  // The board.
  { call: 'inboundBoard', request: (f) => get('inboundBoard', { id: f.hospitalId }), expect: ED_ONLY },
  {
    call: 'inboundCase',
    request: (f) => get('inboundCase', { id: f.hospitalId, caseId: f.caseId }),
    expect: ED_ONLY,
  },
  {
    call: 'acknowledgeCase',
    request: (f) => ({ method: 'POST', url: path('acknowledgeCase', { id: f.hospitalId, caseId: f.caseId }) }),
    expect: ED_ONLY,
  },
  {
    call: 'inboundCaseMedia',
    request: (f) => get('inboundCaseMedia', { id: f.hospitalId, caseId: f.caseId }),
    expect: ED_ONLY,
  },
  {
    call: 'inboundCaseChat',
    request: (f) => get('inboundCaseChat', { id: f.hospitalId, caseId: f.caseId }),
    expect: ED_ONLY,
  },
  {
    call: 'inboundCaseFeedback',
    request: (f) => get('inboundCaseFeedback', { id: f.hospitalId, caseId: f.caseId }),
    expect: ED_ONLY,
  },
  // The case's media as the case detail plays it: a signed link, and the file itself with a token.
  {
    call: 'mediaAccess',
    request: (f) => get('mediaAccess', { id: f.caseId, uploadId: f.uploadId }),
    expect: { ed: 200, edOther: 403, crew: 200, admin: 403 },
    why: 'the crew of the case reads its own media',
  },
  {
    call: 'file:media',
    request: (f) => ({
      method: 'GET',
      url: `/media/twiage-cases/${f.caseId}/uploads/${f.uploadId}/${f.mediaFileName}`,
    }),
    expect: { ed: 200, edOther: 403, crew: 200, admin: 403 },
    why: 'the crew of the case reads its own media',
  },
  // Chat with the crew.
  {
    call: 'chatMessages',
    request: (f) => get('chatMessages', { id: f.caseId }),
    expect: { ed: 200, edOther: 403, crew: 200, admin: 403 },
    why: 'the crew is the other side of the chat',
  },
  {
    call: 'postChatMessage',
    request: (f) => ({
      method: 'POST',
      url: path('postChatMessage', { id: f.caseId }),
      body: {
        clientCreatedAt: CLIENT_TIME,
        deviceId: 'console',
        message: 'Bay 3 is ready',
        timestamp: CLIENT_TIME,
        source: 'web_hospital',
        senderOrganization: 'Riverside Regional Medical Center',
      },
    }),
    expect: { ed: 201, edOther: 403, crew: 201, admin: 403 },
    why: 'the crew is the other side of the chat',
  },
  {
    call: 'chatMessageRead',
    request: (f) => ({
      method: 'POST',
      url: path('chatMessageRead', { id: f.caseId, messageId: f.crewMessageId }),
    }),
    // The crew is a participant (not 403) but cannot mark its own message read (409).
    expect: { ed: 200, edOther: 403, crew: 409, admin: 403 },
  },
  // Statuses.
  {
    call: 'hospitalStatuses',
    request: (f) => get('hospitalStatuses', { id: f.hospitalId }),
    expect: { ed: 200, edOther: 403, crew: 200, admin: 200 },
    why: 'crews see the statuses when they choose a destination; admins manage hospitals',
  },
  {
    call: 'setHospitalStatus',
    request: (f) => ({
      method: 'POST',
      url: path('setHospitalStatus', { id: f.hospitalId }),
      body: { status: 'On diversion', priority: 'critical' },
    }),
    expect: { ed: 201, edOther: 403, crew: 403, admin: 201 },
    why: 'admins may set a status for a hospital (e.g. its ED cannot)',
  },
  {
    call: 'clearHospitalStatus',
    request: async (f) => ({
      method: 'DELETE',
      url: path('clearHospitalStatus', { id: f.hospitalId, statusId: await newStatus(f) }),
    }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins may clear a status for a hospital',
  },
  // Broadcasts.
  {
    call: 'broadcastRecipients',
    request: (f) => get('broadcastRecipients', { id: f.hospitalId }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins may broadcast for a hospital',
  },
  {
    call: 'sendBroadcast',
    request: (f) => ({
      method: 'POST',
      url: path('sendBroadcast', {}),
      body: { hospitalId: f.hospitalId, emsAgencyIds: [IDS.agencies.riverside], content: 'Trauma bay full' },
    }),
    expect: { ed: 201, edOther: 403, crew: 403, admin: 201 },
    why: 'admins may broadcast for a hospital',
  },
  {
    call: 'sentBroadcasts',
    request: (f) => get('sentBroadcasts', { id: f.hospitalId }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins may broadcast for a hospital, so they see what it sent',
  },
  // Dispatch (an emsDispatch case sent to an agency).
  {
    call: 'dispatchOptions',
    request: (f) => get('dispatchOptions', { id: f.hospitalId }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins may dispatch for a hospital',
  },
  {
    call: 'dispatches',
    request: (f) => get('dispatches', { id: f.hospitalId }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins may dispatch for a hospital',
  },
  {
    call: 'createDispatch',
    request: (f) => ({
      method: 'POST',
      url: path('createDispatch', { id: f.hospitalId }),
      body: { emsAgencyId: IDS.agencies.riverside, notes: 'Fall at home, hip pain' },
    }),
    expect: { ed: 201, edOther: 403, crew: 403, admin: 201 },
    why: 'admins may dispatch for a hospital',
  },
  // Arrival, hand-over, diversion and the offload report (issue 15).
  {
    call: 'markArrived',
    request: async (f) => ({
      method: 'POST',
      url: path('markArrived', { id: f.hospitalId, caseId: await freshCase(f) }),
    }),
    expect: ED_ONLY,
  },
  {
    call: 'acceptHandoff',
    request: async (f) => ({
      method: 'POST',
      url: path('acceptHandoff', { id: f.hospitalId, caseId: await freshCase(f) }),
    }),
    expect: ED_ONLY,
  },
  {
    call: 'divertCase',
    request: async (f) => ({
      method: 'POST',
      url: path('divertCase', { id: f.hospitalId, caseId: await freshCase(f) }),
      body: { reason: 'CT scanner down' },
    }),
    expect: ED_ONLY,
  },
  { call: 'divertedAway', request: (f) => get('divertedAway', { id: f.hospitalId }), expect: ED_ONLY },
  {
    call: 'arrivalSettings',
    request: (f) => get('arrivalSettings', { id: f.hospitalId }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins set them',
  },
  {
    call: 'updateArrivalSettings',
    request: (f) => ({
      method: 'PUT',
      url: path('updateArrivalSettings', { id: f.hospitalId }),
      body: { arrivalRadiusM: 150, offloadAlertMinutes: 30 },
    }),
    expect: { ed: 403, edOther: 403, crew: 403, admin: 200 },
    why: 'a hospital setting: organisation admins administer hospitals',
  },
  {
    call: 'offloadReport',
    request: (f) => ({
      method: 'GET',
      url: `${path('offloadReport', { id: f.hospitalId })}?from=2026-11-01&to=2026-11-21&tz=America%2FNew_York`,
    }),
    expect: ED_ONLY,
  },
  // The calls ringing now (a console that opens while one rings).
  { call: 'ringingCalls', request: (f) => get('ringingCalls', { id: f.hospitalId }), expect: ED_ONLY },
  ...ACTIVATION_CALLS,
  ...CHARGE_NURSE_CALLS,
  ...CONSULT_CALLS,
];

export interface ChannelRow {
  channel: (f: MatrixFixture) => string | Promise<string>;
  name: string;
  subscribed: readonly Caller[];
  why?: string;
}

/** The console's subscriptions; every caller not listed is refused. */
export const CONSOLE_CHANNELS: ChannelRow[] = [
  {
    name: 'hospital:{id} (the board)',
    channel: (f) => `hospital:${f.hospitalId}`,
    subscribed: ['ed', 'admin'],
    why: 'its notices name changed case ids, never their content; admins hear broadcast.sent and dispatch.updated',
  },
  {
    name: 'hospital-status:{id}',
    channel: (f) => `hospital-status:${f.hospitalId}`,
    subscribed: ['ed', 'crew', 'admin'],
    why: 'crews of agencies delivering to it see statuses change live',
  },
  {
    name: 'case:{id} (case detail)',
    channel: (f) => `case:${f.caseId}`,
    subscribed: ['ed', 'crew'],
  },
  ...CONSULT_CHANNELS,
];

/** Hospital-scoped routes that are not console calls (none yet); listed so the guard below passes. */
const NOT_CONSOLE_CALLS = new Set<string>([]);

/** `ed1`'s claims signed with a key that is not the server's; and the same claims unsigned. */
async function forgedTokens(edToken: string): Promise<string[]> {
  const claims = decodeJwt(edToken);
  const signed = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode('not-the-server-secret-but-just-as-long-as-one'));
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
  return [signed, unsigned];
}

describe('console authorisation matrix', () => {
  let t: TestApp;
  let fixture: MatrixFixture;
  const tokens = {} as Record<Exclude<Caller, 'forged' | 'none'>, string>;
  let forged: string[];
  let realtimeUrl: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    realtimeUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/realtime`;
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [ST_MARYS] });
    [tokens.ed, tokens.edOther, tokens.crew, tokens.admin] = await signInAll(t, [
      'ed1',
      'edstmarys',
      'medic1',
      'admin',
    ]);
    forged = await forgedTokens(tokens.ed);

    const { id: caseId } = await startCase(t, tokens.crew, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    await setDestination(t, tokens.crew, caseId, RIVERSIDE);
    const form = new FormData();
    form.append('type', 'photo');
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
      Buffer.alloc(200, 0),
      Buffer.from([0xff, 0xd9]),
    ]);
    form.append('data', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpeg');
    const multipart = new Request('http://localhost/', { method: 'POST', body: form });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: path('uploadMedia', { id: caseId }),
      headers: {
        authorization: authorizationHeader(tokens.crew),
        'content-type': multipart.headers.get('content-type') ?? '',
        'idempotency-key': randomUUID(),
      },
      payload: Buffer.from(await multipart.arrayBuffer()),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const upload = (uploaded.json() as { upload: { _id?: string; id?: string; fileName: string } }).upload;
    const message = await send(t, 'POST', path('postChatMessage', { id: caseId }), tokens.crew, {
      body: {
        clientCreatedAt: CLIENT_TIME,
        deviceId: 'web_ems',
        message: 'ETA 12 minutes',
        timestamp: CLIENT_TIME,
        source: 'web_ems',
        senderOrganization: 'Riverside EMS',
      },
    });
    expect(message.statusCode, message.body).toBe(201);
    fixture = {
      t,
      hospitalId: RIVERSIDE,
      caseId,
      uploadId: String(upload._id ?? upload.id),
      mediaFileName: upload.fileName,
      crewMessageId: (message.json() as { _id: string })._id,
      edToken: tokens.ed,
    };
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  async function ask(row: MatrixRow, token: string | null) {
    const request = await row.request(fixture);
    return send(t, request.method, request.url, token, { body: request.body });
  }

  for (const row of CONSOLE_CALLS) {
    for (const caller of CALLERS) {
      const expected = caller === 'none' || caller === 'forged' ? (row.expect[caller] ?? 401) : row.expect[caller];
      it(`${row.call} as ${caller} → ${expected}`, async () => {
        const asked = caller === 'forged' ? forged : [caller === 'none' ? null : tokens[caller]];
        for (const token of asked) {
          const res = await ask(row, token);
          expect(res.statusCode, `${row.call} as ${caller}: ${res.body.slice(0, 300)}`).toBe(expected);
          if (expected >= 400) {
            const body = res.json() as { message?: unknown };
            expect(typeof body.message === 'string' && body.message.length > 0, 'a 4xx says why').toBe(true);
            // A refusal never carries the case's data (the crew's chat message here).
            expect(res.body).not.toContain('ETA 12 minutes');
          }
        }
      });
    }
  }

  for (const row of CONSOLE_CHANNELS) {
    for (const caller of ['ed', 'edOther', 'crew', 'admin'] as const) {
      const expected = row.subscribed.includes(caller) ? 'subscribed' : 'refused';
      it(`subscribe ${row.name} as ${caller} → ${expected}`, async () => {
        const client = await openAuthenticated(realtimeUrl, tokens[caller]);
        sockets.push(client);
        const channel = await row.channel(fixture);
        client.send({ type: 'subscribe', channel });
        const answer = await Promise.race([
          client.next('subscribed', (frame) => frame.channel === channel).then(() => 'subscribed' as const),
          client.next('error', (frame) => frame.channel === channel).then(() => 'refused' as const),
        ]);
        expect(answer).toBe(expected);
      });
    }
  }

  it('closes a /realtime connection that authenticates with a forged token (4401), before any subscription', async () => {
    for (const token of forged) {
      const client = await openSocket(realtimeUrl);
      sockets.push(client);
      client.send({ type: 'auth', token });
      expect((await client.closed).code).toBe(REALTIME_CLOSE.unauthorized);
    }
  });

  it('has a row for every hospital-scoped route of the contract (a new console call needs one)', () => {
    const covered = new Set<string>(CONSOLE_CALLS.map((row) => row.call));
    const hospitalScoped = (Object.keys(routes) as RouteName[]).filter((name) =>
      routes[name].path.startsWith('/v4/hospitals/:id'),
    );
    const missing = hospitalScoped.filter((name) => !covered.has(name) && !NOT_CONSOLE_CALLS.has(name));
    expect(missing, 'hospital-scoped routes without a row in CONSOLE_CALLS').toEqual([]);
  });
});
