/**
 * Standard Web Push (RFC 8030 delivery, RFC 8291 aes128gcm encryption, RFC 8292 VAPID). Browsers hand
 * us their PushSubscription under a topic of §4 — `user-{id}` (their own) or `ems-{caseId}` (a case
 * they take part in) — and we push to users who have no open real-time socket: a chat message, a
 * transfer request. A subscription the push service reports gone (404/410) is deleted.
 *
 * The request is built with web-push's `generateRequestDetails` and sent by our transport (fetch),
 * not `sendNotification`: the same code path then works for the test's local endpoint. Endpoints are
 * accepted only on the browser vendors' push services, so a subscription cannot make the server call
 * an arbitrary (internal) address.
 */
import { randomUUID } from 'node:crypto';
import webpush from 'web-push';
import type { PushPayload, PushSubscriptionJson } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { badRequest, forbidden } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import type { PushRepository } from './push.repository.js';
import type { VapidKeys } from './vapid-keys.js';

export interface PushRequest {
  endpoint: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
}
/** Delivers one push request; answers the push service's status. */
export type PushTransport = (request: PushRequest) => Promise<{ status: number }>;

const PUSH_REQUEST_TIMEOUT_MS = 10_000;
/** How long the push service keeps an undelivered notification: a chat message is stale after an hour. */
const PUSH_TTL_SECONDS = 3_600;

export const fetchTransport: PushTransport = async ({ endpoint, method, headers, body }) => {
  const response = await fetch(endpoint, {
    method,
    headers,
    // A plain Uint8Array copy: a Buffer may sit on a SharedArrayBuffer, which fetch's body type refuses.
    ...(body ? { body: new Uint8Array(body) } : {}),
    signal: AbortSignal.timeout(PUSH_REQUEST_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  return { status: response.status };
};

/** The push services of Chrome/Edge (FCM), Firefox (autopush), Windows (WNS) and Safari (Apple). */
const PUSH_SERVICE_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^([a-z0-9-]+\.)*push\.services\.mozilla\.com$/,
  /^([a-z0-9-]+\.)*notify\.windows\.com$/,
  /^([a-z0-9-]+\.)*push\.apple\.com$/,
];

export function isKnownPushService(endpoint: string): boolean {
  const url = new URL(endpoint);
  return url.protocol === 'https:' && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname));
}

export interface PushServiceDeps {
  repo: PushRepository;
  vapid: VapidKeys & { subject: string };
  /** The case-access policy: crews and the destination's ED staff take part in a case's conversation. */
  participants: Pick<CaseAccess, 'requireReader'>;
  clock: Clock;
  connections: { isUserConnected(userId: string): Promise<boolean> };
  transport?: PushTransport;
  /** Tests only: accept any http(s) endpoint (a local test server). */
  allowAnyEndpoint?: boolean;
  /** Reports a failed delivery (never with the endpoint or payload: both identify a person). */
  onError?: (error: unknown) => void;
}

export function createPushService(deps: PushServiceDeps) {
  const { repo, vapid, participants, clock, connections } = deps;
  const transport = deps.transport ?? fetchTransport;
  const inFlight = new Set<Promise<void>>();

  async function authoriseTopic(principal: Principal, topic: string): Promise<void> {
    const dash = topic.indexOf('-');
    const kind = topic.slice(0, dash);
    const id = topic.slice(dash + 1);
    if (kind === 'user') {
      if (id !== principal.userId) throw forbidden();
      return;
    }
    await participants.requireReader(principal, id);
  }

  async function deliver(subscription: { endpoint: string; p256dh: string; auth: string }, payload: string) {
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      {
        vapidDetails: vapid,
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'high',
      },
    );
    const { status } = await transport({
      endpoint: details.endpoint,
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body,
    });
    if (status === 404 || status === 410) await repo.removeEndpoint(subscription.endpoint);
    else if (status >= 400) throw new Error(`push service answered ${status}`);
  }

  async function notifyNow(
    userIds: readonly string[],
    topicsFor: (userId: string) => string[],
    payload: PushPayload,
    always: boolean,
  ): Promise<void> {
    const offline: string[] = [];
    for (const userId of new Set(userIds)) {
      if (always || !(await connections.isUserConnected(userId))) offline.push(userId);
    }
    if (offline.length === 0) return;
    const topics = [...new Set(offline.flatMap(topicsFor))];
    const rows = await repo.forUsersAndTopics(offline, topics);
    const wanted = rows.filter((row) => topicsFor(row.user_id).includes(row.topic));
    // One browser subscribed to both of a user's topics gets the notification once.
    const byEndpoint = new Map(wanted.map((row) => [row.endpoint, row]));
    const text = JSON.stringify(payload);
    await Promise.all(
      [...byEndpoint.values()].map((row) => deliver(row, text).catch((error: unknown) => deps.onError?.(error))),
    );
  }

  return {
    vapidPublicKey: (): { publicKey: string } => ({ publicKey: vapid.publicKey }),

    async subscribe(principal: Principal, subscription: PushSubscriptionJson, topic: string): Promise<void> {
      if (!deps.allowAnyEndpoint && !isKnownPushService(subscription.endpoint)) {
        throw badRequest('registrationToken: the endpoint is not a known browser push service.');
      }
      await authoriseTopic(principal, topic);
      await repo.upsert({
        id: randomUUID(),
        user_id: principal.userId,
        topic,
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        created_at: clock.now().toISOString(),
      });
    },

    /** Removes only the caller's own subscription; unknown ones are already gone (idempotent). */
    async unsubscribe(principal: Principal, subscription: PushSubscriptionJson, topic: string): Promise<void> {
      await repo.remove(principal.userId, topic, subscription.endpoint);
    },

    /**
     * Pushes to those of `userIds` with no open socket, on their subscriptions to `topicsFor(user)`.
     * Runs in the background: a slow push service never delays the write that caused it. `always`: push
     * even to users with a socket open (a team alert must reach the phone in a pocket, not only the
     * console left open on a desk).
     */
    notify(
      userIds: readonly string[],
      topicsFor: (userId: string) => string[],
      payload: PushPayload,
      options: { always?: boolean } = {},
    ): void {
      const job = notifyNow(userIds, topicsFor, payload, options.always ?? false)
        .catch((error: unknown) => deps.onError?.(error))
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
    },

    /** Waits for the pushes under way (on shutdown, and in tests). */
    async drain(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
