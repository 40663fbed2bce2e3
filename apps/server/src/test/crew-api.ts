/**
 * Helpers for API tests of what crews and ED staff do together (chat, transfers, push): requests as
 * the clients send them, a started case, extra users, and what was published on a channel (read from
 * the gateway's durable log, which is exactly what a subscriber would be sent).
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import {
  authorizationHeader,
  buildPath,
  CreateCaseResponse,
  RealtimeEvent,
  routes,
  type UserRole,
} from '@inbound/contract';
import { parseJson, toJson } from '../db/json.js';
import { cachedHash, type TestApp } from './app.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export const CLIENT_TIME = '2026-11-21T11:59:30.000Z';
export const RIVERSIDE_TRUCK = 'truck-riverside-medic-1';
export const LAKESIDE_TRUCK = 'truck-lakeside-rescue-7';

export interface SendOptions {
  body?: unknown;
  /** An Idempotency-Key; a fresh one unless null (no header) or a given key. */
  key?: string | null;
}

export function send(
  t: TestApp,
  method: Method,
  url: string,
  token: string | null,
  { body, key = randomUUID() }: SendOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'created-at': CLIENT_TIME };
  if (token) headers.authorization = authorizationHeader(token);
  if (key !== null) headers['idempotency-key'] = key;
  return t.app.inject({ method, url, headers, ...(body !== undefined ? { payload: body as object } : {}) });
}

/** Starts a case the way the crew app does; answers its id and number. */
export async function startCase(
  t: TestApp,
  token: string,
  emsAgency: string,
  truck: string,
): Promise<{ id: string; caseNumber: string }> {
  const res = await send(t, 'POST', `/v4/twiageCases?placeholder-${Date.now()}`, token, {
    body: { emsAgency, truck, beganAt: '2026-11-21T11:58:00.000Z' },
  });
  if (res.statusCode !== 201) throw new Error(`start case failed: ${res.statusCode} ${res.body}`);
  return CreateCaseResponse.parse(res.json());
}

export async function setDestination(t: TestApp, token: string, caseId: string, hospitalId: string) {
  const res = await send(t, 'PATCH', `/v4/twiageCases/${caseId}`, token, { body: { destinationHospital: hospitalId } });
  if (res.statusCode !== 200) throw new Error(`set destination failed: ${res.statusCode} ${res.body}`);
}

/** Posts a crew chat message on a case as the crew app does (Riverside EMS, sent at CLIENT_TIME). */
export function postCrewChat(
  t: TestApp,
  token: string,
  caseId: string,
  message: string,
): Promise<LightMyRequestResponse> {
  return send(t, 'POST', buildPath(routes.postChatMessage.path, { id: caseId }), token, {
    body: {
      clientCreatedAt: CLIENT_TIME,
      deviceId: 'web_ems',
      message,
      timestamp: CLIENT_TIME,
      source: 'web_ems',
      senderOrganization: 'Riverside EMS',
    },
  });
}

/** Adds a user (password `demo-{username}`) as ED staff of a hospital or crew member of agencies. */
export async function addUser(
  t: TestApp,
  username: string,
  { roles, edStaffOf = [], memberOf = [] }: { roles: UserRole[]; edStaffOf?: string[]; memberOf?: string[] },
): Promise<string> {
  const id = `user-${username}`;
  const now = new Date().toISOString();
  await t.database.db
    .insertInto('users')
    .values({
      id,
      username,
      username_key: username.toLowerCase(),
      email: null,
      email_key: null,
      display_name: username,
      password_hash: await cachedHash(`demo-${username}`),
      disabled: 0,
      features: '[]',
      roles: toJson(roles),
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (const hospital_id of edStaffOf) {
    await t.database.db.insertInto('hospital_staff').values({ hospital_id, user_id: id }).execute();
  }
  for (const agency_id of memberOf) {
    await t.database.db.insertInto('agency_members').values({ agency_id, user_id: id, role: 'member' }).execute();
  }
  return id;
}

/**
 * The events published on a channel so far, in order (optionally only of one type) — once the case
 * outbox has relayed what was committed before the call (its relay runs after the commit, not in it).
 */
export async function published(t: TestApp, channel: string, type?: string): Promise<RealtimeEvent[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const [events, messages] = await Promise.all([
      t.database.db.selectFrom('case_outbox').select(['event_id']).limit(1).execute(),
      t.database.db.selectFrom('case_outbox_messages').select(['id']).limit(1).execute(),
    ]);
    if ((events.length === 0 && messages.length === 0) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const rows = await t.database.db
    .selectFrom('realtime_messages')
    .select(['event'])
    .where('channel', '=', channel)
    .orderBy('seq')
    .execute();
  const events = rows.map((row) => RealtimeEvent.parse(parseJson(row.event, null)));
  return type ? events.filter((e) => e.type === type) : events;
}

/** Signs the users in at once; answers their tokens in the same order. */
export async function signInAll<const N extends readonly string[]>(
  t: TestApp,
  usernames: N,
): Promise<{ [K in keyof N]: string }> {
  return (await Promise.all(usernames.map((u) => t.signIn(u)))) as { [K in keyof N]: string };
}
