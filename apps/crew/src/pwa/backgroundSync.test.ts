import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../lib/session';
import { caseSyncTag, registerCaseSync, startBackgroundSync } from './backgroundSync';
import { SW_MESSAGE } from './swMessages';

afterEach(() => {
  useSession.setState({ caseActive: false, case: null });
});

describe('background sync (spec §4: a sync tag for the case after coming back online)', () => {
  it('registers inbound-case-{id} where the browser has Background Sync', async () => {
    const register = vi.fn(async () => {});
    const registration = { sync: { register } } as unknown as ServiceWorkerRegistration;
    expect(caseSyncTag('abc')).toBe('inbound-case-abc');
    await expect(registerCaseSync('abc', registration)).resolves.toBe(true);
    expect(register).toHaveBeenCalledWith('inbound-case-abc');
  });

  it('only logs where it is missing or refused (Safari, Firefox)', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    await expect(registerCaseSync('abc', {} as ServiceWorkerRegistration)).resolves.toBe(false);
    await expect(registerCaseSync('abc', undefined)).resolves.toBe(false);
    const refused = { sync: { register: vi.fn(async () => Promise.reject(new Error('denied'))) } };
    await expect(registerCaseSync('abc', refused as unknown as ServiceWorkerRegistration)).resolves.toBe(false);
    expect(info).toHaveBeenCalledTimes(3);
  });

  it('on online registers the active case; a flush message from the worker flushes the outbox', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const register = vi.fn(async () => {});
    const container = new EventTarget() as EventTarget & { getRegistration: () => Promise<unknown> };
    container.getRegistration = async () => ({ sync: { register } });
    const flush = vi.fn(async () => {});
    const stop = startBackgroundSync(container as unknown as ServiceWorkerContainer, flush);
    try {
      window.dispatchEvent(new Event('online'));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(register).not.toHaveBeenCalled(); // no active case

      useSession.setState({ caseActive: true, case: { id: 'case-7' } as never });
      window.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(register).toHaveBeenCalledWith('inbound-case-case-7'));

      container.dispatchEvent(new MessageEvent('message', { data: { type: SW_MESSAGE.flushOutbox, tag: 'x' } }));
      container.dispatchEvent(new MessageEvent('message', { data: { type: 'other' } }));
      expect(flush).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });
});
