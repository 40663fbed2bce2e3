import { useState } from 'react';
import { useConnectionState } from '../../lib/realtime/realtime';
import { audioBlocked, unlockAudio } from './beep';

const CONNECTION_TEXT = {
  live: 'Live',
  connecting: 'Connecting…',
  offline: 'Offline — reconnecting. The board may be out of date.',
  unauthorized: 'Not connected — sign in again.',
} as const;

/** Whether the board is live, and the alert sound switch (with the browser's one-click audio unlock). */
export function BoardToolbar({ soundOn, onSoundChange }: { soundOn: boolean; onSoundChange: (on: boolean) => void }) {
  const connection = useConnectionState();
  const [blocked, setBlocked] = useState(audioBlocked);
  return (
    <div className="toolbar">
      <span className={`connection connection-${connection}`} role="status" data-testid="connection">
        <span className="connection-dot" aria-hidden="true" /> {CONNECTION_TEXT[connection]}
      </span>
      <span className="toolbar-actions">
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
