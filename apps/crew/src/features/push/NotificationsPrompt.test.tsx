import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionForTests } from '../../lib/session';
import { mockFetch } from '../../test/fetchMock';
import { signedInSession } from '../../test/fixtures';
import { NotificationsPrompt } from './NotificationsPrompt';

/** A browser with push, whose permission question is answered `answer`. */
function fakeBrowser(answer: NotificationPermission) {
  const notification = {
    permission: 'default' as NotificationPermission,
    requestPermission: vi.fn(async () => {
      notification.permission = answer;
      return answer;
    }),
  };
  const subscription = { toJSON: () => ({ endpoint: 'https://push.example/1', keys: {} }) };
  const registration = {
    pushManager: { getSubscription: vi.fn(async () => null), subscribe: vi.fn(async () => subscription) },
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
  });
  return notification;
}

beforeEach(() => resetSessionForTests(signedInSession()));
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('NotificationsPrompt', () => {
  it('asks only when tapped; once granted it subscribes the user topic and goes away', async () => {
    const notification = fakeBrowser('granted');
    const api = mockFetch({
      'GET /notification/vapid-public-key': { body: { publicKey: 'AQID' } },
      'POST /notification/subscribe': { status: 204 },
    });
    render(<NotificationsPrompt />);
    expect(screen.getByRole('heading', { name: 'Get notified of transfers and hospital messages' })).toBeVisible();
    expect(notification.requestPermission).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Turn on notifications' }));
    expect(notification.requestPermission).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(api.calls('POST /notification/subscribe')).toHaveLength(1));
    expect(api.calls('POST /notification/subscribe')[0]?.body).toMatchObject({ topic: 'user-u-medic1' });
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull());
  });

  it('a refusal subscribes nothing and removes the offer', async () => {
    fakeBrowser('denied');
    const api = mockFetch({ 'POST /notification/subscribe': { status: 204 } });
    render(<NotificationsPrompt />);
    await userEvent.click(screen.getByRole('button', { name: 'Turn on notifications' }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull());
    expect(api.calls('POST /notification/subscribe')).toHaveLength(0);
  });

  it('Not now hides it without asking; an answered question shows nothing', async () => {
    const notification = fakeBrowser('granted');
    const { unmount } = render(<NotificationsPrompt />);
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('heading', { name: /Get notified/ })).toBeNull();
    expect(notification.requestPermission).not.toHaveBeenCalled();
    unmount();

    notification.permission = 'denied';
    render(<NotificationsPrompt />);
    expect(screen.queryByRole('heading', { name: /Get notified/ })).toBeNull();
  });
});
