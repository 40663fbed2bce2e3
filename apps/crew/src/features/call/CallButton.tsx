import { lazy, Suspense, useState } from 'react';
import { callMessages, consultMessages, messages, type Hospital } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { Modal } from '../../ui/Modal';
import { isConsultActive } from '../consult/consultState';
import { useTransfer } from '../transfer/transferController';
import { useCallActive } from './callState';

// The call (WebRTC, its screen) loads on the first tap: the case screen's first JavaScript stays small.
const CallScreen = lazy(() => import('./CallScreen').then((m) => ({ default: m.CallScreen })));

const isPlaceholder = (caseId: string) => caseId.startsWith('placeholder-');

/**
 * The phone in the case screen's top bar (spec §4 "Voice call"): calls the destination ED; a hospital
 * not on the platform is called by phone (its ED numbers as tel: links).
 */
export function CallButton({ caseData, destination }: { caseData: { id: string }; destination: Hospital | null }) {
  const [open, setOpen] = useState<'call' | 'phone' | null>(null);
  const active = useCallActive((s) => s.active);

  const tap = () => {
    if (active) return setOpen('call');
    if (isPlaceholder(caseData.id)) return showAlert(callMessages.caseNotOpen, messages.warningTitle);
    if (!destination) return showAlert(callMessages.noDestination, messages.warningTitle);
    // Spec §4: a voice call waits for the live consult (it is a call too).
    if (isConsultActive()) return showAlert(consultMessages.consultInProgress, messages.warningTitle);
    // Spec §4: no call while a transfer of the case is open.
    if (useTransfer.getState().transfer !== null)
      return showAlert(callMessages.transferInProgress, messages.warningTitle);
    setOpen(destination.nonTwiage ? 'phone' : 'call');
  };

  return (
    <>
      <button
        type="button"
        className={active ? 'icon-button icon-button--call-on' : 'icon-button'}
        aria-label={active ? 'Call in progress' : 'Call the emergency department'}
        onClick={tap}
        data-testid="call-button"
      >
        <PhoneIcon />
      </button>
      {open === 'phone' && destination && <PhoneNumbers hospital={destination} onClose={() => setOpen(null)} />}
      {open === 'call' && destination && (
        <Suspense fallback={null}>
          <CallScreen caseId={caseData.id} hospital={destination} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}

/** Spec §4: a hospital not on the platform is called on its ED numbers only. */
function PhoneNumbers({ hospital, onClose }: { hospital: Hospital; onClose: () => void }) {
  return (
    <Modal
      title={`Call ${hospital.name}`}
      onClose={onClose}
      actions={
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
      }
    >
      <p className="modal__message">{callMessages.notOnPlatform}</p>
      {hospital.edPhoneNumbers.length === 0 ? (
        <p className="modal__message">No phone number is listed for this emergency department.</p>
      ) : (
        <ul className="call-numbers">
          {hospital.edPhoneNumbers.map((n) => (
            <li key={`${n.name}-${n.phoneNumber}`}>
              <a className="button button--block" href={`tel:${n.phoneNumber.replace(/[^\d+]/g, '')}`}>
                {n.name}: {n.phoneNumber}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

function PhoneIcon() {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z"
      />
    </svg>
  );
}
