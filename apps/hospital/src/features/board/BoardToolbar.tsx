import { useState } from 'react';
import { useConnectionState } from '../../lib/realtime/realtime';
import { audioBlocked, unlockAudio } from './beep';
import { useMe } from '../auth/queries';
import { PhoneAlertsButton } from '../activation/PhoneAlerts';

/** What the board says of the real-time connection (ConnectionState of @inbound/client), and its style. */
const CONNECTION = {
  open: { text: 'Live', style: 'live' },
  idle: { text: 'Connecting…', style: 'connecting' },
  connecting: { text: 'Connecting…', style: 'connecting' },
  waiting: { text: 'Offline — reconnecting. The board may be out of date.', style: 'offline' },
  unauthorized: { text: 'Not connected — sign in again.', style: 'unauthorized' },
} as const;

/** Whether the board is live, and the alert sound switch (with the browser's one-click audio unlock). */
export function BoardToolbar({ soundOn, onSoundChange }: { soundOn: boolean; onSoundChange: (on: boolean) => void }) {
  const connection = useConnectionState();
  const me = useMe();
  const [blocked, setBlocked] = useState(audioBlocked);
  return (
    <div className="toolbar">
      <span className={`connection connection-${CONNECTION[connection].style}`} role="status" data-testid="connection">
        <span className="connection-dot" aria-hidden="true" /> {CONNECTION[connection].text}
      </span>
      <span className="toolbar-actions">
        {/* Turned on before the first alert, not only from an alert's bar (a team member's phone). */}
        <PhoneAlertsButton userId={me.data?._id ?? null} />
        {soundOn && blocked && (
          <button
            type="button"
            className="button button-warn"
            onClick={() => {
              unlockAudio();
              setTimeout(() => setBlocked(audioBlocked()), 100);
            }}
          >
            Enable alert sound
          </button>
        )}
        <button
          type="button"
          className="button"
          aria-pressed={soundOn}
          onClick={() => {
            unlockAudio();
            onSoundChange(!soundOn);
            setTimeout(() => setBlocked(audioBlocked()), 100);
          }}
        >
          {soundOn ? 'Alert sound: on' : 'Alert sound: off'}
        </button>
      </span>
    </div>
  );
}
