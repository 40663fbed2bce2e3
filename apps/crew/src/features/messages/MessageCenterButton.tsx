import { useState } from 'react';
import { useSession } from '../../lib/session';
import { MessageCenterModal } from './MessageCenterModal';
import { useBroadcasts, useLiveBroadcasts } from './queries';
import { countUnread } from './unread';

/** The envelope at the top right of Start, with the unread count; opens the Message Center. */
export function MessageCenterButton() {
  const [open, setOpen] = useState(false);
  const broadcasts = useBroadcasts();
  useLiveBroadcasts();
  const lastOpened = useSession((state) => state.messageCenterLastOpened);
  const unread = countUnread(broadcasts.data ?? [], lastOpened);

  const openCenter = () => {
    useSession.setState({ messageCenterLastOpened: new Date().toISOString() });
    setOpen(true);
  };

  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={unread > 0 ? `Message Center, ${unread} unread` : 'Message Center'}
        onClick={openCenter}
      >
        <EnvelopeIcon />
        {unread > 0 && (
          <span className="icon-button__badge" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && <MessageCenterModal onClose={() => setOpen(false)} />}
    </>
  );
}

function EnvelopeIcon() {
  return (
    <svg width="30" height="30" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        d="M3 6.5h18v11H3zM3.5 7l8.5 6.5L20.5 7"
      />
    </svg>
  );
}
