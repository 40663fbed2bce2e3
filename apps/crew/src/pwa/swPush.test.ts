/**
 * public/sw-extensions.js, the push side, run in a sandbox with a fake service-worker scope: a synthetic
 * `push` event (headless Chromium has no push service to send a real one) shows the server's
 * notification; tapping it opens the payload's screen in the app's window.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import type { PushPayload } from '@inbound/contract';

const script = readFileSync(path.resolve(import.meta.dirname, '../../public/sw-extensions.js'), 'utf8');

type Listener = (event: Record<string, unknown>) => void;

interface FakePage {
  url: string;
  focus: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
}

function loadWorker(pages: FakePage[] = []) {
  const listeners: Record<string, Listener[]> = {};
  const showNotification = vi.fn(async () => undefined);
  const self = {
    addEventListener: (type: string, listener: Listener) => (listeners[type] ??= []).push(listener),
    registration: { showNotification },
    location: { origin: 'http://localhost' },
  };
  const clients = {
    matchAll: vi.fn(async () => pages),
    openWindow: vi.fn(async () => null),
  };
  runInNewContext(script, { self, clients, caches: {}, URL });
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    for (const listener of listeners[type] ?? [])
      listener({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { dispatch, showNotification, clients };
}

const payload: PushPayload = {
  type: 'CASE_TRANSFER_UPDATED',
  title: 'Case transfer',
  body: 'Someone wants to receive your case.',
  url: '/case',
  caseId: 'case-1',
  transferId: 'tr-1',
};

const pushEvent = (data: unknown) => ({
  data: { json: () => (typeof data === 'string' ? JSON.parse(data) : data), text: () => String(data) },
});

describe('service worker push', () => {
  it("shows the payload's notification, one per transfer, opening the payload's screen", async () => {
    const { dispatch, showNotification } = loadWorker();
    await dispatch('push', pushEvent(payload));
    expect(showNotification).toHaveBeenCalledWith('Case transfer', {
      body: 'Someone wants to receive your case.',
      tag: 'transfer-tr-1',
      renotify: true,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: '/case' },
    });
  });

  it('a payload it cannot read still shows (a push must be visible); a foreign URL becomes the app', async () => {
    const { dispatch, showNotification } = loadWorker();
    await dispatch('push', pushEvent('not json'));
    expect(showNotification).toHaveBeenLastCalledWith('Inbound', expect.objectContaining({ body: 'not json' }));
    await dispatch('push', pushEvent({ ...payload, url: 'https://evil.example/' }));
    expect(showNotification).toHaveBeenLastCalledWith('Case transfer', expect.objectContaining({ data: { url: '/' } }));
  });

  it('a tap focuses the open app on that screen, or opens a window when none is open', async () => {
    const page: FakePage = { url: 'http://localhost/start', focus: vi.fn(), navigate: vi.fn() };
    page.navigate.mockResolvedValue(page);
    const open = loadWorker([page]);
    const notification = { close: vi.fn(), data: { url: '/case' } };
    await open.dispatch('notificationclick', { notification });
    expect(notification.close).toHaveBeenCalled();
    expect(page.navigate).toHaveBeenCalledWith('http://localhost/case');
    expect(page.focus).toHaveBeenCalled();

    const none = loadWorker([]);
    await none.dispatch('notificationclick', { notification });
    expect(none.clients.openWindow).toHaveBeenCalledWith('http://localhost/case');
  });
});
