/**
 * Web Push, the page's part (spec §4: topics 'user-{id}' and 'ems-{caseId}'; Logout unsubscribes
 * 'user-{id}'). Only when the crew granted notifications: the browser's PushManager is subscribed with
 * the server's VAPID key, and the subscription (its JSON — the spec's "registration token") is posted to
 * `POST /notification/subscribe` per topic. The service worker (public/sw-extensions.js) shows what
 * arrives and opens the right screen when it is tapped.
 */
import { useEffect } from 'react';
import { api } from '../../lib/apiClient';
import { useSession } from '../../lib/session';

function supported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    typeof Notification !== 'undefined'
  );
}

/** The applicationServerKey as PushManager wants it, from the base64url the server sends. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  // Production builds only register a worker; without one (dev, tests) there is nothing to subscribe.
  const found = await navigator.serviceWorker.getRegistration();
  return found ? navigator.serviceWorker.ready : null;
}

async function currentSubscription(create: boolean): Promise<PushSubscription | null> {
  if (!supported() || Notification.permission !== 'granted') return null;
  const reg = await registration();
  if (!reg) return null;
  const existing = await reg.pushManager.getSubscription();
  if (existing || !create) return existing;
  const { publicKey } = await api.call('vapidPublicKey');
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) });
}

/** Subscribes this browser to `topic`; false when push is not possible here (no permission, no worker). */
export async function subscribeTopic(topic: string): Promise<boolean> {
  try {
    const subscription = await currentSubscription(true);
    if (!subscription) return false;
    const registrationToken = JSON.stringify(subscription.toJSON());
    await api.call('pushSubscribe', { body: { registrationToken, topic } });
    if (useSession.getState().pushToken !== registrationToken) useSession.setState({ pushToken: registrationToken });
    return true;
  } catch (error) {
    console.warn('push subscription failed', error instanceof Error ? error.name : 'error');
    return false;
  }
}

export async function unsubscribeTopic(topic: string, token?: string): Promise<void> {
  const registrationToken = useSession.getState().pushToken;
  if (!registrationToken) return;
  try {
    await api.call('pushUnsubscribe', { body: { registrationToken, topic }, token });
  } catch {
    // Best effort: the server drops subscriptions the push service reports gone.
  }
}

/** Whether the crew can still be asked for notifications here ('default' permission, push possible). */
export function canAskForNotifications(): boolean {
  return supported() && Notification.permission === 'default';
}

/**
 * Asks for the spec's "Browser permissions: push notifications" — only from a tap (browsers quietly
 * refuse or bury prompts a page raises on its own) — and, when granted, subscribes 'user-{id}'.
 */
export async function askForNotifications(userId: string): Promise<NotificationPermission> {
  if (!supported()) return 'denied';
  const permission = await Notification.requestPermission();
  if (permission === 'granted') await subscribeTopic(`user-${userId}`);
  return permission;
}

/** Start: subscribes 'user-{id}' (transfer requests and messages for the crew member) when permitted. */
export function useUserPushTopic(): void {
  const userId = useSession((state) => state.user?.id ?? null);
  useEffect(() => {
    if (!userId || !supported() || Notification.permission !== 'granted') return;
    void subscribeTopic(`user-${userId}`);
  }, [userId]);
}

/** The case screen: 'ems-{caseId}' once the id is real; unsubscribed when the case is gone (closed, transferred). */
export function useCasePushTopic(caseId: string | null): void {
  useEffect(() => {
    if (!caseId || caseId.startsWith('placeholder-') || !supported()) return;
    void subscribeTopic(`ems-${caseId}`);
    return () => {
      if (useSession.getState().case?.id !== caseId) void unsubscribeTopic(`ems-${caseId}`);
    };
  }, [caseId]);
}

/**
 * Logout (spec §4) unsubscribes 'user-{id}' with the token that was just cleared, then drops the
 * browser's subscription, so nothing for the old crew member shows on this device.
 */
useSession.subscribe((state, previous) => {
  if (state.jwt !== null || previous.jwt === null) return;
  const userId = previous.user?.id;
  const token = previous.jwt.token;
  const registrationToken = previous.pushToken;
  if (!registrationToken || !userId) return;
  void (async () => {
    try {
      await api.call('pushUnsubscribe', { body: { registrationToken, topic: `user-${userId}` }, token });
    } catch {
      // Offline at logout: the browser subscription below is dropped anyway.
    }
    if (!supported()) return;
    const reg = await navigator.serviceWorker.getRegistration();
    const subscription = await reg?.pushManager.getSubscription();
    await subscription?.unsubscribe();
  })();
});
