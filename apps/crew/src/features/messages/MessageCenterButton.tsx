import { useEffect, useState } from 'react';
import { useSession } from '../../lib/session';
import { MessageCenterEnvelope } from './MessageCenterEnvelope';
import { MessageCenterModal } from './MessageCenterModal';
import { useBroadcasts, useLiveBroadcasts } from './queries';
import { countUnread } from './unread';

/** The envelope at the top right of the case screen, with the unread count; opens the Message Center. */
export function MessageCenterButton() {
  const [open, setOpen] = useState(false);
  const unread = useUnreadBroadcasts();
  return (
    <>
      <MessageCenterEnvelope unread={unread} onOpen={() => setOpen(true)} />
      {open && <MessageCenterModal onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * Start's Message Center without its button: Start draws the envelope itself at first paint and this,
 * loaded after, reads the broadcasts (and listens for new ones), tells Start the unread count, and shows
 * the center while `open` — also when the envelope was tapped before this code was in.
 */
export function MessageCenterLive({
  open,
  onClose,
  onUnread,
}: {
  open: boolean;
  onClose: () => void;
  onUnread: (unread: number) => void;
}) {
  const unread = useUnreadBroadcasts();
  useEffect(() => onUnread(unread), [unread, onUnread]);
  return open ? <MessageCenterModal onClose={onClose} /> : null;
}

function useUnreadBroadcasts(): number {
  const broadcasts = useBroadcasts();
  useLiveBroadcasts();
  const lastOpened = useSession((state) => state.messageCenterLastOpened);
  return countUnread(broadcasts.data ?? [], lastOpened);
}
