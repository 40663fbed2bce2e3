/**
 * The other side of the crew app's real-time tests: a hospital (ED staff) client speaking the API the
 * hospital console uses — chat messages, receipts, broadcasts — with its own token.
 */
import { expect } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { authorizationHeader } from '@inbound/contract';
import { demoPassword } from './demo';

export const SEED = {
  riversideAgency: 'agency-riverside-ems',
  riversideRegional: 'hospital-riverside-regional',
} as const;

export interface HospitalClient {
  post(path: string, body?: unknown): Promise<Response>;
  get(path: string): Promise<Response>;
}

/** Signs ED staff in as the hospital console does (`twiageClient: 'hospital'`). */
export async function hospitalClient(baseURL: string, username = 'ed1'): Promise<HospitalClient> {
  const response = await fetch(`${baseURL}/v4/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: demoPassword(username), twiageClient: 'hospital', platform: 'web' }),
  });
  expect(response.status, 'hospital sign-in').toBe(200);
  const { authorizationToken } = (await response.json()) as { authorizationToken: { token: string } };
  const headers = (json: boolean): Record<string, string> => ({
    Authorization: authorizationHeader(authorizationToken.token),
    'Idempotency-Key': randomUUID(),
    'Created-At': new Date().toISOString(),
    ...(json ? { 'Content-Type': 'application/json' } : {}),
  });
  return {
    post: (path, body) =>
      fetch(`${baseURL}${path}`, {
        method: 'POST',
        headers: headers(body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    get: (path) => fetch(`${baseURL}${path}`, { headers: headers(false) }),
  };
}

/** A chat message from the hospital, with the body of spec §7 (source: the console's). */
export function hospitalChatBody(message: string) {
  const now = new Date().toISOString();
  return {
    clientCreatedAt: now,
    deviceId: 'web_hospital',
    message,
    timestamp: now,
    source: 'web_hospital',
    senderOrganization: 'Riverside Regional Medical Center',
    type: 'CHAT',
  };
}
