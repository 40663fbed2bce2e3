import { useSession } from '../../lib/session';

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
      aria-label={unread > 0 ? `Message Center, ${unread} unread` : 'Message Center'}
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
