import { messages } from '@inbound/contract';
import { Modal } from '../../ui/Modal';
import type { Closability } from './caseModel';

export type CloseStep = Exclude<Closability, { closable: true }> | { closable: true };

/**
 * The dialogs around Close Case (spec §4, §8): a Warning when no hospital is chosen (OK opens the
 * hospital picker) or patient fields are missing; otherwise the confirmation with its warning text.
 */
export function CloseCaseDialog({
  step,
  onCancel,
  onConfirm,
  onChooseHospital,
}: {
  step: CloseStep;
  onCancel: () => void;
  onConfirm: () => void;
  onChooseHospital: () => void;
}) {
  if (!step.closable) {
    const text =
      step.reason === 'noHospital' ? messages.noHospitalSelected : messages.patientInfoRequired(step.missing);
    return (
      <Modal
        title={messages.warningTitle}
        role="alertdialog"
        onClose={onCancel}
        actions={
          <button type="button" className="button" onClick={step.reason === 'noHospital' ? onChooseHospital : onCancel}>
            OK
          </button>
        }
      >
        <p className="modal__message">{text}</p>
      </Modal>
    );
  }
  return (
    <Modal
      title="Close Case"
      role="alertdialog"
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel} data-autofocus>
            Cancel
          </button>
          <button type="button" className="button button--danger" onClick={onConfirm}>
            Yes
          </button>
        </>
      }
    >
      <p className="modal__message">{messages.closeCaseConfirm}</p>
      <p className="modal__message">{messages.closeCaseWarning}</p>
    </Modal>
  );
}
