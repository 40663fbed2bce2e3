import { afterEach, describe, expect, it, vi } from 'vitest';
import { logout } from '../features/auth/logout';
import { useSession } from '../lib/session';
import { clearServiceWorkerRuntimeCache, SW_MESSAGE } from './swMessages';

type FakeContainer = Pick<ServiceWorkerContainer, 'controller' | 'getRegistration'>;

function installServiceWorker(container: FakeContainer | undefined) {
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
}

afterEach(() => {
  // jsdom has no service worker: put it back that way.
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('asking the service worker to clear its runtime cache', () => {
  it('does nothing (and does not throw) without service-worker support, as in jsdom', async () => {
    expect('serviceWorker' in navigator).toBe(false);
    await expect(clearServiceWorkerRuntimeCache()).resolves.toBe(false);
  });

  it('posts CLEAR_RUNTIME_CACHE to the controlling worker', async () => {
    const postMessage = vi.fn();
    installServiceWorker({
      controller: { postMessage } as unknown as ServiceWorker,
      getRegistration: vi.fn(),
    });
    await expect(clearServiceWorkerRuntimeCache()).resolves.toBe(true);
    expect(postMessage).toHaveBeenCalledWith({ type: SW_MESSAGE.clearRuntimeCache });
    expect(SW_MESSAGE.clearRuntimeCache).toBe('CLEAR_RUNTIME_CACHE');
  });

  it("falls back to the registration's active worker when the page is not controlled", async () => {
    const postMessage = vi.fn();
    installServiceWorker({
      controller: null,
      getRegistration: vi.fn(async () => ({ active: { postMessage } }) as unknown as ServiceWorkerRegistration),
    });
    await expect(clearServiceWorkerRuntimeCache()).resolves.toBe(true);
    expect(postMessage).toHaveBeenCalledWith({ type: 'CLEAR_RUNTIME_CACHE' });
  });

  it('logout() asks for it', async () => {
    const postMessage = vi.fn();
    installServiceWorker({
      controller: { postMessage } as unknown as ServiceWorker,
      getRegistration: vi.fn(),
    });
    useSession.setState({ jwt: null });
    await logout();
    expect(postMessage).toHaveBeenCalledWith({ type: 'CLEAR_RUNTIME_CACHE' });
  });
});
