import { transferMessages } from '@inbound/contract';
import { Banner } from '../../ui/Banner';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import {
  acceptRequest,
  canCancelTransfer,
  cancelTransfer,
  declineRequest,
  hideTransfer,
  useTransfer,
} from './transferController';
import './transfer.css';

/**
 * The sending crew's modal (spec §4): the code and the instruction to give it to the receiving provider;
 * a request asks Accept / Decline; then what the requester is doing. Cancel transfer only when §4 allows.
 */
export function SenderTransferModal() {
  const { transfer, inFlight, offlineSince } = useTransfer();
  const request = transfer?.request?.status;

  return (
    <Modal
      title="Case Transfer"
      onClose={hideTransfer}
      actions={
        <>
          {request === 'open' && (
            <>
              <button type="button" className="button" disabled={inFlight} onClick={() => void acceptRequest()}>
                Accept
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={inFlight}
                onClick={() => void declineRequest()}
              >
                Decline
              </button>
            </>
          )}
          <button
            type="button"
            className="button button--secondary"
            disabled={inFlight || !canCancelTransfer(transfer)}
            onClick={() => void cancelTransfer()}
          >
            Cancel transfer
          </button>
          <button type="button" className="button button--secondary" onClick={hideTransfer}>
            Close
          </button>
        </>
      }
    >
      {offlineSince !== null && <Banner kind="error" message={transferMessages.slowConnection} />}
      {!transfer ? (
        <Spinner label="Opening the case transfer" />
      ) : (
        <>
          <p className="transfer__code" aria-label={`Case transfer code ${spaced(transfer.caseTransferCode)}`}>
            {transfer.caseTransferCode}
          </p>
          <p className="transfer__instruction">{transferMessages.giveCode}</p>
          <div role="status" aria-live="polite" className="transfer__status">
            {request === 'open' && <p>{transfer.messageForSender ?? transferMessages.requestOpen}</p>}
            {request === 'accepted' && <p>{transferMessages.requestAccepted}</p>}
            {request === 'received' && <p>{transferMessages.requestReceived}</p>}
          </div>
        </>
      )}
    </Modal>
  );
}

/** Read digit by digit: "1 2 3 4 5 6", as it is said over the radio. */
function spaced(code: string): string {
  return code.split('').join(' ');
}
