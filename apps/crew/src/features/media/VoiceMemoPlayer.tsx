import { useState } from 'react';
import { api } from '../../lib/apiClient';
import { formatDuration } from './recorder';
import './voiceMemoPlayer.css';

type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'error'; text: string };

/**
 * A VOICE_MEMO chat message (spec §3 `length`): its length, and Play. The file is fetched only when asked
 * for — through a short-lived signed link (docs/media.md "Serving"), since an <audio> element cannot send
 * the token — so a long chat costs no bandwidth on a cellular link until someone listens.
 */
export function VoiceMemoPlayer({
  caseId,
  mediaId,
  length,
}: {
  caseId: string;
  mediaId: string | null;
  length: number | null;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const label = `Voice memo${length !== null ? ` ${formatDuration(Math.round(length))}` : ''}`;

  const load = async () => {
    if (!mediaId) return;
    setState({ kind: 'loading' });
    try {
      const access = await api.call('mediaAccess', { params: { id: caseId, uploadId: mediaId } });
      setState({ kind: 'ready', url: access.url });
    } catch {
      setState({ kind: 'error', text: 'The voice memo could not be loaded. Check the connection and try again.' });
    }
  };

  return (
    <span className="voice-memo-player">
      <span>{label}</span>
      {state.kind === 'ready' ? (
        <audio
          controls
          autoPlay
          src={state.url}
          aria-label={label}
          onError={() =>
            setState({ kind: 'error', text: 'The voice memo is still being prepared. Try again in a moment.' })
          }
        />
      ) : (
        mediaId && (
          <button
            type="button"
            className="link-button voice-memo-player__play"
            onClick={() => void load()}
            disabled={state.kind === 'loading'}
          >
            {state.kind === 'loading' ? 'Loading…' : `Play ${label.toLowerCase()}`}
          </button>
        )
      )}
      {state.kind === 'error' && (
        <span className="chat__error" role="alert">
          {state.text}
        </span>
      )}
    </span>
  );
}
