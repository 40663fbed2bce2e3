import { useState } from 'react';
import { api } from '../../lib/client';

/**
 * "Alerts on this device": registers the console's alert service worker (public/alerts-sw.js) and
 * subscribes this browser to the user's own push topic, so a team activation reaches the phone in a
 * pocket as well as the consoles left open. Hidden where the browser has no Web Push.
 */
export function PhoneAlertsButton({ userId }: { userId: string | null }) {
  const [state, setState] = useState<'idle' | 'busy' | 'on' | 'refused' | 'failed'>(() =>
    typeof Notification !== 'undefined' && Notification.permission === 'denied' ? 'refused' : 'idle',
  );
  if (userId === null || typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window))
    return null;
  const turnOn = async () => {
    setState('busy');
    try {
      if ((await Notification.requestPermission()) !== 'granted') return setState('refused');
      const registration = await navigator.serviceWorker.register('/hospital/alerts-sw.js', { scope: '/hospital/' });
      const { publicKey } = await api('vapidPublicKey');
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
      await api('pushSubscribe', {
        body: { registrationToken: JSON.stringify(subscription), topic: `user-${userId}` },
      });
      setState('on');
    } catch {
      setState('failed');
    }
  };
  if (state === 'on') return <span className="phone-alerts-note">Team alerts on this device: on</span>;
  if (state === 'refused')
    return <span className="phone-alerts-note">Notifications are blocked for this site in the browser settings.</span>;
  return (
    <button
      type="button"
      className="button button-small phone-alerts"
      disabled={state === 'busy'}
      onClick={() => void turnOn()}
    >
      {state === 'failed' ? 'Team alerts on this device: try again' : 'Team alerts on this device'}
    </button>
  );
}
