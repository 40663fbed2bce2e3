import { useState } from 'react';
import type { Monitor } from '@inbound/contract';
import { openLiveConsult } from '../consult/openConsult';
import { useSession } from '../../lib/session';
import { Modal } from '../../ui/Modal';
import { CaseTransferButton } from '../transfer/CaseTransferButton';
import { PhotoCapture } from './capture/PhotoCapture';
import { VideoCapture } from './capture/VideoCapture';
import { MediaItemList } from './MediaItemList';
import { MEDIA_BUTTONS } from './mediaModel';
import type { MediaEventType } from './mediaQueue';
import { MonitorForm } from './MonitorForm';
import { monitorDescription } from './monitorIntegration';
import { useCaseMedia } from './useCaseMedia';
import { VoiceMemoRecorder } from './VoiceMemoRecorder';
import './media.css';

type Screen =
  | { kind: 'photo' | 'id' | 'ekg' }
  | { kind: 'video' }
  | { kind: 'voicememo' }
  | { kind: 'ekgMode' }
  | { kind: 'monitor' };

const NO_MONITORS: readonly Monitor[] = [];

/** The case id at the moment of saving: a placeholder may have become the server's id meanwhile. */
const currentCaseId = () => useSession.getState().case?.id ?? null;

/**
 * The MEDIA tab (spec §2): Photo, ID, EKG, Video, Voice Memo, Live Consult and Case Transfer, each media
 * button with its count (the server's counts plus what this device still has on its way), and below them
 * every item with its delivery state. Loaded on first open (React.lazy): the capture code is not part of
 * the case screen's first load.
 */
export default function MediaTab() {
  const caseData = useSession((state) => state.case);
  const team = useSession((state) => state.selectedTeam);
  const [screen, setScreen] = useState<Screen | null>(null);
  const { counts, rows } = useCaseMedia(caseData?.id ?? null);
  if (!caseData) return null;
  const monitors = team?.monitors ?? NO_MONITORS;
  const ekgLine = monitorDescription(caseData, monitors);
  const close = () => setScreen(null);

  const open = (type: MediaEventType) => {
    // §2: the mode chooser only when the team has monitors; otherwise straight to the picture.
    if (type === 'ekg') setScreen(monitors.length > 0 ? { kind: 'ekgMode' } : { kind: 'ekg' });
    else setScreen({ kind: type });
  };

  const liveConsult = () => openLiveConsult(caseData, team);

  return (
    <div className="media-tab">
      <div className="media-tab__grid">
        {MEDIA_BUTTONS.map(({ type, label }) => {
          const count = counts[type];
          const describedBy = type === 'ekg' && ekgLine ? 'media-ekg-line' : undefined;
          return (
            <button
              key={type}
              type="button"
              className="media-button"
              onClick={() => open(type)}
              aria-label={`${label}, ${count} ${count === 1 ? 'item' : 'items'}`}
              aria-describedby={describedBy}
              data-media={type}
            >
              <MediaIcon type={type} />
              <span className="media-button__label">{label}</span>
              <span className={count > 0 ? 'media-button__count media-button__count--some' : 'media-button__count'}>
                {count}
              </span>
              {type === 'ekg' && ekgLine && (
                <span id="media-ekg-line" className="media-button__line">
                  {ekgLine}
                </span>
              )}
            </button>
          );
        })}
        <button type="button" className="media-button media-button--wide" onClick={liveConsult}>
          <LiveIcon />
          <span className="media-button__label">Live Consult</span>
        </button>
      </div>
      <div className="media-tab__transfer">
        <CaseTransferButton />
      </div>
      <MediaItemList rows={rows} />

      {screen && (screen.kind === 'photo' || screen.kind === 'id' || screen.kind === 'ekg') && (
        <PhotoCapture type={screen.kind} caseId={currentCaseId} onClose={close} />
      )}
      {screen?.kind === 'video' && <VideoCapture caseId={currentCaseId} onClose={close} />}
      {screen?.kind === 'voicememo' && <VoiceMemoRecorder caseId={currentCaseId} onClose={close} />}
      {screen?.kind === 'ekgMode' && (
        <Modal
          title="EKG"
          onClose={close}
          actions={
            <button type="button" className="button button--secondary" onClick={close}>
              Cancel
            </button>
          }
        >
          {ekgLine && <p className="modal__message">{ekgLine}</p>}
          <div className="ekg-modes">
            <button type="button" className="button button--block" onClick={() => setScreen({ kind: 'monitor' })}>
              Monitor Integration
            </button>
            <button type="button" className="button button--block" onClick={() => setScreen({ kind: 'ekg' })}>
              Picture
            </button>
          </div>
        </Modal>
      )}
      {screen?.kind === 'monitor' && (
        <MonitorForm monitors={monitors} current={caseData.monitorIntegration ?? null} onClose={close} />
      )}
    </div>
  );
}

function MediaIcon({ type }: { type: MediaEventType }) {
  const common = { width: 30, height: 30, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;
  switch (type) {
    case 'photo':
      return (
        <svg {...common}>
          <path
            fill="currentColor"
            d="M9 3 7.2 5H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3zm3 15a5 5 0 1 1 0-10 5 5 0 0 1 0 10zm0-2a3 3 0 1 0 0-6 3 3 0 0 0 0 6z"
          />
        </svg>
      );
    case 'id':
      return (
        <svg {...common}>
          <path
            fill="currentColor"
            d="M3 5h18a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm5 3a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zm-4 9h8c0-2-1.8-3-4-3s-4 1-4 3zm10-8v2h6V9zm0 4v2h5v-2z"
          />
        </svg>
      );
    case 'ekg':
      return (
        <svg {...common}>
          <path
            fill="none"
            stroke="currentColor"
            strokeWidth="2.2"
            strokeLinejoin="round"
            strokeLinecap="round"
            d="M2 12h4l2-5 3 11 3-14 2 8h6"
          />
        </svg>
      );
    case 'video':
      return (
        <svg {...common}>
          <path
            fill="currentColor"
            d="M4 6h11a2 2 0 0 1 2 2v1.5l4-2.5v10l-4-2.5V16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z"
          />
        </svg>
      );
    case 'voicememo':
      return (
        <svg {...common}>
          <path
            fill="currentColor"
            d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11z"
          />
        </svg>
      );
  }
}

function LiveIcon() {
  return (
    <svg width="30" height="30" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM6.3 6.3l1.4 1.4a6 6 0 0 0 0 8.6l-1.4 1.4a8 8 0 0 1 0-11.4zm11.4 0a8 8 0 0 1 0 11.4l-1.4-1.4a6 6 0 0 0 0-8.6z"
      />
    </svg>
  );
}
