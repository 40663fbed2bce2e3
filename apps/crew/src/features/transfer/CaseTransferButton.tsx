import { callMessages, messages } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { isCallActive } from '../call/callState';
import { isConsultActive } from '../consult/consultState';
import { openTransfer, useTransfer } from './transferController';

/** The MEDIA tab's Case Transfer button (spec §2); opens (or shows again) the sender's modal. */
export function CaseTransferButton() {
  const active = useTransfer((state) => state.role === 'sender' && state.transfer !== null);
  return (
    <button
      type="button"
      className="button button--secondary"
      onClick={() =>
        // Spec §4/§8: a transfer never starts during a call (a live consult is one too).
        isCallActive() || isConsultActive()
          ? showAlert(callMessages.closeCallToTransfer, messages.warningTitle)
          : void openTransfer()
      }
    >
      Case Transfer{active ? ' (open)' : ''}
    </button>
  );
}
