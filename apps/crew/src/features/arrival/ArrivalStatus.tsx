import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Modal } from '../../ui/Modal';
import { arrivalKey, EMPTY_ARRIVAL, type ArrivalState } from './arrivalState';
import { playDiversionAlert } from './sound';
import './arrival.css';

const clock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

function formatTimer(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function useArrivalState(caseId: string): ArrivalState {
  // Filled by the case channel (caseChannel.ts); the screen itself makes no requests.
  const query = useQuery<ArrivalState>({ queryKey: arrivalKey(caseId), queryFn: () => EMPTY_ARRIVAL, enabled: false });
  return query.data ?? EMPTY_ARRIVAL;
}

/**
 * One line on the case screen: at the door, the offload timer until the ED accepts the hand-over;
 * then "Handoff accepted by … hh:mm". Nothing before arrival (the screen has no height to spare).
 */
export function ArrivalStatus({ caseId }: { caseId: string }) {
  const { arrival, handoff } = useArrivalState(caseId);
  const [now, setNow] = useState(() => Date.now());
  const running = arrival !== null && handoff === null;
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  if (!arrival) return null;
  if (handoff) {
    return (
      <p className="arrival-line arrival-line--done" role="status" data-testid="handoff-accepted">
        <span aria-hidden="true">✓ </span>Handoff accepted by {handoff.byName} {clock(handoff.at)}
      </p>
    );
  }
  return (
    <p className="arrival-line" role="status" data-testid="offload-timer">
      <span>Arrived {clock(arrival.at)} · waiting for handoff</span>
      <strong className="arrival-line__timer">{formatTimer(now - Date.parse(arrival.at))}</strong>
    </p>
  );
}

/**
 * The diversion alert: sound (and vibration), and a dialog with the ED's reason that leads to the
 * hospital picker. It stays until the crew chooses another hospital (the destination change clears
 * the diversion) or closes it to decide with the ED by phone; the line under the top bar remains.
 */
export function DiversionAlert({ caseId, onChooseHospital }: { caseId: string; onChooseHospital: () => void }) {
  const { diversion } = useArrivalState(caseId);
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const sounded = useRef<string | null>(null);
  useEffect(() => {
    if (diversion && sounded.current !== diversion.at) {
      sounded.current = diversion.at;
      playDiversionAlert();
    }
  }, [diversion]);
  if (!diversion) return null;
  const text = `${diversion.hospitalName} diverted this ambulance: ${diversion.reason}`;
  return (
    <>
      <p className="diversion-banner" role="alert" data-testid="diversion-banner">
        <strong>Diverted:</strong> {diversion.reason}. Choose another hospital.
      </p>
      {closedAt !== diversion.at && (
        <Modal
          title="Diverted"
          role="alertdialog"
          onClose={() => setClosedAt(diversion.at)}
          actions={
            <>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setClosedAt(diversion.at);
                  onChooseHospital();
                }}
              >
                Choose Hospital
              </button>
              <button type="button" className="button button--secondary" onClick={() => setClosedAt(diversion.at)}>
                Later
              </button>
            </>
          }
        >
          <p className="diversion-text">
            {text}
            {diversion.byName ? ` (${diversion.byName}, ${clock(diversion.at)})` : ''}.
          </p>
        </Modal>
      )}
    </>
  );
}
