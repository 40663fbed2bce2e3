import { useState } from 'react';
import { useSession } from '../../lib/session';
import { askForNotifications, canAskForNotifications } from './pushSubscription';

/**
 * Start's offer to turn on notifications, asked from a tap rather than by the page on its own: a
 * transfer request or a hospital's message can then reach the crew with the app in the background.
 * Gone once the crew answered the browser's question either way, or chose Not now (for this visit).
 */
export function NotificationsPrompt() {
  const userId = useSession((state) => state.user?.id ?? null);
  const [open, setOpen] = useState(canAskForNotifications);
  if (!open || !userId) return null;
  return (
    <section className="notice notice--info" aria-labelledby="notifications-prompt-title">
      <h2 id="notifications-prompt-title" className="notice__title">
        Get notified of transfers and hospital messages
      </h2>
      <p className="notice__text">
        With notifications on, a case transfer or a message from the hospital reaches you even when Inbound is not on
        screen.
      </p>
      <div className="notice__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            void askForNotifications(userId).finally(() => setOpen(canAskForNotifications()));
          }}
        >
          Turn on notifications
        </button>
        <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
          Not now
        </button>
      </div>
    </section>
  );
}
