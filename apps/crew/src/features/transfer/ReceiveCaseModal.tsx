import { useState, type FormEvent } from 'react';
import { transferMessages } from '@inbound/contract';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { cancelReceive, requestTransfer, useTransfer } from './transferController';
import './transfer.css';

/**
 * The case transfer receive modal (spec §2): enter the code; Send Request (disabled while the code is
 * empty or a request is in flight); Cancel; then a spinner with a message while the other crew answers.
 */
export function ReceiveCaseModal() {
  const { transfer, inFlight } = useTransfer();
  const [code, setCode] = useState('');
  const request = transfer?.request?.status;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '' || inFlight) return;
    void requestTransfer(code);
  };

  const waitingText =
    request === 'accepted' || request === 'received'
      ? transferMessages.loadingCase
      : (transfer?.messageForReceiver ?? transferMessages.waitingForSender);

  return (
    <Modal
      title="Receive Case"
      onClose={() => void cancelReceive()}
      actions={
        <>
          {!transfer && (
            <button type="submit" form="receive-case-form" className="button" disabled={code.trim() === '' || inFlight}>
              Send Request
            </button>
          )}
          <button type="button" className="button button--secondary" onClick={() => void cancelReceive()}>
            Cancel
          </button>
        </>
      }
    >
      {transfer ? (
        <Spinner label={waitingText} />
      ) : (
        <form id="receive-case-form" onSubmit={submit}>
          <TextField
            label="Case transfer code"
            value={code}
            onChange={setCode}
            inputMode="numeric"
            autoComplete="off"
            maxLength={32}
            autoFocus
          />
          {inFlight && <Spinner label="Sending request" />}
        </form>
      )}
    </Modal>
  );
}
