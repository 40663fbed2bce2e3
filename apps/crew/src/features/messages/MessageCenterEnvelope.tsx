import { useSession } from '../../lib/session';
import { ENVELOPE_PATH, startTexts } from '../start/startScreen';

/**
 * The Message Center's envelope with its unread count: the button alone, no data code, so Start can draw
 * it before the API client and its schemas are in (issue 16, item 11). A tap marks the center opened
 * (messages newer than that are unread) and opens it.
 */
export function MessageCenterEnvelope({ unread, onOpen }: { unread: number; onOpen: () => void }) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={unread > 0 ? `${startTexts.messageCenter}, ${unread} unread` : startTexts.messageCenter}
      onClick={() => {
        useSession.setState({ messageCenterLastOpened: new Date().toISOString() });
        onOpen();
      }}
    >
      <EnvelopeIcon />
      {unread > 0 && (
        <span className="icon-button__badge" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </button>
  );
}

function EnvelopeIcon() {
  return (
    <svg width="30" height="30" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" d={ENVELOPE_PATH} />
    </svg>
  );
}
