import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, PushPayload, routes, VapidPublicKeyResponse } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import {
  CLIENT_TIME,
  LAKESIDE_TRUCK,
  RIVERSIDE_TRUCK,
  send,
  setDestination,
  startCase,
  signInAll,
} from '../../test/crew-api.js';
import { openAuthenticated } from '../realtime/test-client.js';
import { isKnownPushService } from './push.service.js';
import { loadOrCreateVapidKeys, VAPID_KEYS_FILE } from './vapid-keys.js';

/** A browser's side of a push subscription: its ECDH key pair and auth secret (RFC 8291 §2). */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.getPublicKey().toString('base64url'), authText: auth.toString('base64url') };
}
type BrowserKeys = ReturnType<typeof browserKeys>;

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const h = createHmac('sha256', key);
  for (const d of data) h.update(d);
  return h.digest();
};

/** RFC 8291 + RFC 8188 (aes128gcm, one record) decryption, as the browser does it. */
function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdhSecret = keys.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverPublic]);
  const ikm = hmac(hmac(keys.auth, ecdhSecret), keyInfo, Buffer.from([1]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2); // the last record's delimiter
  return padded.subarray(0, end).toString('utf8');
}

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

describe('push routes', () => {
  let t: TestApp;
  let server: Server;
  let endpointBase: string;
  const received: Received[] = [];
  let medic1: string;
  let medic3: string;
  let ed1: string;
  let caseId: string;

  /** The next push the local "push service" receives (or fails after a while). */
  async function nextPush(after: number, timeoutMs = 5_000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    while (received.length <= after) {
      if (Date.now() > deadline) throw new Error('no push arrived');
      await new Promise((r) => setTimeout(r, 20));
    }
    return received[after]!;
  }

  const subscription = (keys: BrowserKeys, name: string) => ({
    endpoint: `${endpointBase}/${name}`,
    expirationTime: null,
    keys: { p256dh: keys.p256dh, auth: keys.authText },
  });

  const subscribe = (token: string, registrationToken: unknown, topic: string) =>
    send(t, 'POST', routes.pushSubscribe.path, token, { body: { registrationToken, topic }, key: null });

  const chat = (token: string, senderOrganization: string) =>
    send(t, 'POST', buildPath(routes.postChatMessage.path, { id: caseId }), token, {
      body: {
        clientCreatedAt: CLIENT_TIME,
        deviceId: 'console',
        message: 'Bay 3, stroke team waiting',
        timestamp: CLIENT_TIME,
        source: 'web_hospital',
        senderOrganization,
      },
    });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.statusCode = req.url?.startsWith('/gone') ? 410 : 201;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpointBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({ push: { allowAnyEndpoint: true } });
    [medic1, medic3, ed1] = await signInAll(t, ['medic1', 'medic3', 'ed1']);
    caseId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, caseId, IDS.hospitals.riversideRegional);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('requires authentication', async () => {
    expectClientError(await send(t, 'GET', routes.vapidPublicKey.path, null, { key: null }), 401);
    expectClientError(await subscribe('', {}, 'user-x'), 401);
    expectClientError(await send(t, 'POST', routes.pushUnsubscribe.path, null, { body: {}, key: null }), 401);
  });

  it('serves the VAPID public key kept in DATA_DIR with mode 600, the same after a restart', async () => {
    const { publicKey } = VapidPublicKeyResponse.parse(
      (await send(t, 'GET', routes.vapidPublicKey.path, medic1, { key: null })).json(),
    );
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const file = path.join(t.config.dataDir, VAPID_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateVapidKeys(t.config.dataDir).publicKey).toBe(publicKey);
  });

  it('refuses bad subscriptions and topics the user may not follow', async () => {
    const keys = browserKeys();
    const good = subscription(keys, 'x');
    expectClientError(await subscribe(medic1, 'not json', `user-${IDS.users.medic1}`), 400);
    expectClientError(await subscribe(medic1, { endpoint: good.endpoint }, `user-${IDS.users.medic1}`), 400);
    expectClientError(await subscribe(medic1, good, 'case-123'), 400);
    expectClientError(
      await subscribe(medic1, { ...good, keys: { p256dh: 'short', auth: good.keys.auth } }, `user-${IDS.users.medic1}`),
      400,
    );
    expectClientError(await subscribe(medic1, good, `user-${IDS.users.medic2}`), 403);
    expectClientError(await subscribe(medic3, good, `ems-${caseId}`), 403);
    expectClientError(await subscribe(medic1, good, 'ems-no-such-case'), 404);
    // The token may come as the JSON text of the subscription, as browsers stringify it.
    expect((await subscribe(medic1, JSON.stringify(good), `user-${IDS.users.medic1}`)).statusCode).toBe(204);
    expect((await subscribe(ed1, good, `ems-${caseId}`)).statusCode).toBe(204);
    const unsubscribe = await send(t, 'POST', routes.pushUnsubscribe.path, medic1, {
      body: { registrationToken: good, topic: `user-${IDS.users.medic1}` },
      key: null,
    });
    expect(unsubscribe.statusCode).toBe(204);
    const left = await t.database.db.selectFrom('push_subscriptions').select(['user_id', 'topic']).execute();
    expect(left).toEqual([{ user_id: IDS.users.ed1, topic: `ems-${caseId}` }]);
    await t.database.db.deleteFrom('push_subscriptions').execute();
  });

  it('pushes a chat message to a crew with no open socket, encrypted (aes128gcm) and signed (VAPID), once per browser', async () => {
    const keys = browserKeys();
    const sub = subscription(keys, 'medic1-tablet');
    expect((await subscribe(medic1, sub, `user-${IDS.users.medic1}`)).statusCode).toBe(204);
    expect((await subscribe(medic1, sub, `ems-${caseId}`)).statusCode).toBe(204);
    const before = received.length;
    expect((await chat(ed1, 'Riverside Regional ED')).statusCode).toBe(201);

    const push = await nextPush(before);
    expect(push.path).toBe('/medic1-tablet');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const { publicKey } = loadOrCreateVapidKeys(t.config.dataDir);
    expect(push.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    const payload = PushPayload.parse(JSON.parse(decryptPush(push.body, keys)));
    expect(payload).toMatchObject({ type: 'chat.message', caseId, url: '/case' });
    // The sender is the ED's hospital as the server knows it, not what the body said.
    expect(payload.body).toContain('Riverside Regional Medical Center');
    expect(payload.body).not.toContain('stroke');

    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(before + 1);
  });

  it('does not push to a crew with an open socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = await openAuthenticated(`ws://127.0.0.1:${port}/realtime`, medic1);
    const before = received.length;
    expect((await chat(ed1, 'While connected')).statusCode).toBe(201);
    socket.close();
    await socket.closed;
    // Once the socket is gone the next message is pushed — and it is the only one that arrives.
    for (let i = 0; i < 50 && (await t.app.realtime.isUserConnected(IDS.users.medic1)); i += 1) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await chat(ed1, 'After disconnect')).statusCode).toBe(201);
    const push = await nextPush(before);
    expect(push.path).toBe('/medic1-tablet');
    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(before + 1);
  });

  it('pushes a transfer request to the sending crew', async () => {
    const keys = browserKeys();
    const { id } = await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK);
    const transfer = (
      await send(t, 'POST', routes.createTransfer.path, medic1, { body: { caseId: id }, key: null })
    ).json() as {
      _id: string;
      caseTransferCode: string;
    };
    await t.database.db.deleteFrom('push_subscriptions').execute();
    expect((await subscribe(medic1, subscription(keys, 'medic1-phone'), `user-${IDS.users.medic1}`)).statusCode).toBe(
      204,
    );
    const before = received.length;
    const request = await send(
      t,
      'POST',
      buildPath(routes.requestTransfer.path, { code: transfer.caseTransferCode }),
      medic3,
      {
        body: { emsAgencyId: IDS.agencies.lakeside, truckId: LAKESIDE_TRUCK },
        key: null,
      },
    );
    expect(request.statusCode, request.body).toBe(200);
    const push = await nextPush(before);
    const payload = PushPayload.parse(JSON.parse(decryptPush(push.body, keys)));
    expect(payload).toMatchObject({
      type: 'CASE_TRANSFER_UPDATED',
      body: 'Someone wants to receive your case.',
      transferId: transfer._id,
      caseId: id,
    });
  });

  it('removes a subscription the push service says is gone (410)', async () => {
    await t.database.db.deleteFrom('push_subscriptions').execute();
    expect((await subscribe(medic1, subscription(browserKeys(), 'gone'), `ems-${caseId}`)).statusCode).toBe(204);
    const before = received.length;
    expect((await chat(ed1, 'To a gone browser')).statusCode).toBe(201);
    await nextPush(before);
    for (let i = 0; i < 50; i += 1) {
      if ((await t.database.db.selectFrom('push_subscriptions').selectAll().execute()).length === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await t.database.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
  });
});

describe('push endpoints', () => {
  it("accepts only the browser vendors' push services over https", () => {
    expect(isKnownPushService('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(isKnownPushService('https://updates.push.services.mozilla.com/wpush/v2/abc')).toBe(true);
    expect(isKnownPushService('https://wns2-par02p.notify.windows.com/w/?token=abc')).toBe(true);
    expect(isKnownPushService('https://web.push.apple.com/abc')).toBe(true);
    expect(isKnownPushService('http://fcm.googleapis.com/fcm/send/abc')).toBe(false);
    expect(isKnownPushService('https://127.0.0.1/push')).toBe(false);
    expect(isKnownPushService('https://fcm.googleapis.com.evil.example/x')).toBe(false);
  });

  it('refuses an endpoint elsewhere when the app runs for real', async () => {
    const t = await createTestApp();
    try {
      const token = await t.signIn('medic1');
      const keys = browserKeys();
      const res = await send(t, 'POST', routes.pushSubscribe.path, token, {
        body: {
          registrationToken: {
            endpoint: 'http://127.0.0.1:9/push',
            keys: { p256dh: keys.p256dh, auth: keys.authText },
          },
          topic: `user-${IDS.users.medic1}`,
        },
        key: null,
      });
      expect(expectClientError(res, 400).message).toMatch(/push service/);
    } finally {
      await t.close();
    }
  });
});
