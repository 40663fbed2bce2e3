import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionForTests, useSession } from '../../lib/session';
import { mockFetch } from '../../test/fetchMock';
import { authToken, signedInSession } from '../../test/fixtures';
import { base64UrlToBytes, subscribeTopic, unsubscribeTopic } from './pushSubscription';

const subscriptionJson = {
  endpoint: 'https://push.example/send/abc',
  expirationTime: null,
  keys: { p256dh: 'BPk', auth: 'xyz' },
};

function fakeBrowser(permission: NotificationPermission) {
  const subscription = { toJSON: () => subscriptionJson, unsubscribe: vi.fn(async () => true) };
  let current: typeof subscription | null = null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => (current = subscription)),
  };
  const registration = { pushManager };
  vi.stubGlobal('Notification', { permission, requestPermission: vi.fn(async () => permission) });
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
  });
  return { pushManager, subscription };
}

beforeEach(() => resetSessionForTests(signedInSession()));
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('push subscription', () => {
  it('decodes the VAPID key (base64url)', () => {
    expect([...base64UrlToBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239]);
  });

  it('with permission: subscribes PushManager with the server key and registers the topic', async () => {
    const { pushManager } = fakeBrowser('granted');
    const api = mockFetch({
      'GET /notification/vapid-public-key': { body: { publicKey: 'AQID' } },
      'POST /notification/subscribe': { status: 204 },
      'POST /notification/unsubscribe': { status: 204 },
    });
    expect(await subscribeTopic('user-u-medic1')).toBe(true);
    const options = pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect([...(options.applicationServerKey as Uint8Array)]).toEqual([1, 2, 3]);
    expect(api.calls('POST /notification/subscribe')[0]?.body).toEqual({
      registrationToken: JSON.stringify(subscriptionJson),
      topic: 'user-u-medic1',
    });
    expect(useSession.getState().pushToken).toBe(JSON.stringify(subscriptionJson));

    await subscribeTopic('ems-case-1'); // the same browser subscription, another topic
    expect(pushManager.subscribe).toHaveBeenCalledOnce();
    await unsubscribeTopic('ems-case-1');
    expect(api.calls('POST /notification/unsubscribe')[0]?.body).toEqual({
      registrationToken: JSON.stringify(subscriptionJson),
      topic: 'ems-case-1',
    });
  });

  it('without permission nothing is subscribed or sent', async () => {
    const { pushManager } = fakeBrowser('denied');
    const api = mockFetch({});
    expect(await subscribeTopic('user-u-medic1')).toBe(false);
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(api.requests).toHaveLength(0);
  });

  it("logout unregisters user-{id} with the old token and drops the browser's subscription", async () => {
    const { subscription } = fakeBrowser('granted');
    const api = mockFetch({
      'GET /notification/vapid-public-key': { body: { publicKey: 'AQID' } },
      'POST /notification/subscribe': { status: 204 },
      'POST /notification/unsubscribe': { status: 204 },
    });
    await subscribeTopic('user-u-medic1');
    const token = authToken().token;
    useSession.setState({ jwt: null, user: null, pushToken: null });
    await vi.waitFor(() => expect(subscription.unsubscribe).toHaveBeenCalled());
    const request = api.calls('POST /notification/unsubscribe')[0]!;
    expect(request.body).toEqual({ registrationToken: JSON.stringify(subscriptionJson), topic: 'user-u-medic1' });
    expect(request.headers.get('Authorization')).toContain(token);
  });
});
