/**
 * Every signed-in call of the crew app's sign-in-to-start path (spec §7), against every kind of bad
 * token: none, another scheme, garbage, forged, signed with another key, never issued, expired, revoked.
 * Each must answer 401 with a message, never a 5xx and never the data — and the same call with a good
 * token must work, so a 401 here cannot come from a broken call.
 */
import { SignJWT } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, buildPath, CLIENT_NAME, CLIENT_VERSION, routes, serverMessages } from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, TEST_SECRET, type TestApp } from '../../test/app.js';

interface Call {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  /** The status a good token gets. */
  ok: number;
}

const calls: Call[] = [
  { name: 'GET /v4/users/me', method: 'GET', url: routes.me.path, ok: 200 },
  {
    name: 'GET /v4/emsAgencies/{id}',
    method: 'GET',
    url: `${buildPath(routes.team.path, { id: IDS.agencies.riverside })}?fields=dynamicForms`,
    ok: 200,
  },
  {
    name: 'GET /v4/emsAgencies/{id}/trucks',
    method: 'GET',
    url: buildPath(routes.trucks.path, { id: IDS.agencies.riverside }),
    ok: 200,
  },
  {
    name: 'GET /v4/complaintSets',
    method: 'GET',
    url: `${routes.complaintSets.path}?name=${encodeURIComponent('Standard ALS/BLS 2026')}&firstOccurrenceOnly=true`,
    ok: 200,
  },
  {
    name: 'GET /v4/hospitals/{id}/statuses',
    method: 'GET',
    url: buildPath(routes.hospitalStatuses.path, { id: IDS.hospitals.mercyGeneral }),
    ok: 200,
  },
  {
    name: 'POST /v4/feedback',
    method: 'POST',
    url: routes.feedback.path,
    body: { message: 'Token matrix', clientInfo: { client: CLIENT_NAME, clientVersion: CLIENT_VERSION } },
    ok: 201,
  },
  {
    name: 'POST /v4/users/password',
    method: 'POST',
    url: routes.changePassword.path,
    // A wrong current password: a good token gets its 400, so the password never changes here.
    body: { currentPassword: 'not-the-password', newPassword: 'x', verifyPassword: 'x' },
    ok: 400,
  },
  { name: 'POST /v4/auth/signout', method: 'POST', url: routes.signOut.path, ok: 204 },
];

describe('every signed-in call refuses every bad token with 401 and a message', () => {
  let t: TestApp;
  const send = (call: Call, authorization: string | null): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: call.method,
      url: call.url,
      headers: {
        'created-at': new Date().toISOString(),
        ...(authorization === null ? {} : { authorization }),
      },
      ...(call.body === undefined ? {} : { payload: call.body as object }),
    });
  const sign = (secret: string, jti: string, expiresInS = 600) => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('user-medic1')
      .setJti(jti)
      .setIssuedAt(now)
      .setExpirationTime(now + expiresInS)
      .sign(new TextEncoder().encode(secret));
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(calls)('$name', async (call) => {
    // A good token first: the call works (sign-out ends it, so each call gets its own).
    const good = await t.signIn('medic1');
    expect((await send(call, authorizationHeader(good))).statusCode).toBe(call.ok);

    const token = await t.signIn('medic1');
    const [header, , signature] = token.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ sub: 'user-admin', jti: 'forged', exp: 9_999_999_999 })).toString(
      'base64url',
    );
    const bad: [string, string | null, string][] = [
      ['no token', null, serverMessages.authRequired],
      ['another scheme', `Bearer ${token}`, serverMessages.authRequired],
      ['garbage', 'JWT not-a-token', serverMessages.tokenInvalid],
      ['a forged payload', `JWT ${header}.${otherPayload}.${signature}`, serverMessages.tokenInvalid],
      [
        'another signing key',
        `JWT ${await sign('another-secret-that-is-long-enough-too', 'k')}`,
        serverMessages.tokenInvalid,
      ],
      ['never issued (no session)', `JWT ${await sign(TEST_SECRET, 'never-issued')}`, serverMessages.tokenInvalid],
      ['a huge token', `JWT ${'e'.repeat(64_000)}`, serverMessages.tokenInvalid],
    ];
    for (const [what, authorization, message] of bad) {
      const res = await send(call, authorization);
      expect(res.statusCode, `${call.name} with ${what}: ${res.body}`).toBe(401);
      expect(expectClientError(res, 401).message, what).toBe(message);
    }

    // Expired: the same token, once the clock has passed its expiry.
    t.clock.advance(t.config.tokenTtlMs + 1_000);
    try {
      expect(expectClientError(await send(call, authorizationHeader(token)), 401).message).toBe(
        serverMessages.tokenInvalid,
      );
    } finally {
      t.clock.advance(-(t.config.tokenTtlMs + 1_000));
    }

    // Revoked: signed out, then used again.
    expect((await t.post(routes.signOut.path, undefined, token)).statusCode).toBe(204);
    expect(expectClientError(await send(call, authorizationHeader(token)), 401).message).toBe(
      serverMessages.tokenInvalid,
    );
  });
});
