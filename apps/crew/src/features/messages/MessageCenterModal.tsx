import { useState } from 'react';
import { dispatchMessages, messages as texts, type BroadcastMessage } from '@inbound/contract';
import { errorMessage } from '../../lib/errors';
import { Banner } from '../../ui/Banner';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { loadDispatchedCase } from '../transfer/receiveCase';
import { formatMessageTime } from './formatMessageTime';
import { useBroadcasts } from './queries';

/** The Message Center (spec §2): broadcasts newest first; dispatch messages can load their case. */
export function MessageCenterModal({ onClose }: { onClose: () => void }) {
  const broadcasts = useBroadcasts();
  const [confirming, setConfirming] = useState<BroadcastMessage | null>(null);
  const list = broadcasts.data ?? [];

  return (
    <Modal
      title="Message Center"
      wide
      onClose={onClose}
      actions={
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      {broadcasts.isPending && <Spinner label="Loading messages" />}
      {broadcasts.isError && <Banner kind="error" message={errorMessage(broadcasts.error)} />}
      {broadcasts.isSuccess && list.length === 0 && <p className="empty-state">{texts.messageCenterEmpty}</p>}
      {list.length > 0 && (
        <ul className="messages" aria-label="Broadcast messages">
          {list.map((message) => (
            <BroadcastItem key={message._id} message={message} onLoadCase={() => setConfirming(message)} />
          ))}
        </ul>
      )}
      {confirming && (
        <ConfirmDialog
          message={texts.confirmStartCase}
          confirmLabel="Start"
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const caseNumber = confirming.caseNumber ?? '';
            setConfirming(null);
            onClose();
            loadDispatchedCase(caseNumber);
          }}
        />
      )}
    </Modal>
  );
}

function BroadcastItem({ message, onLoadCase }: { message: BroadcastMessage; onLoadCase: () => void }) {
  return (
    <li className={message.urgent ? 'message message--urgent' : 'message'}>
      <div className="message__meta">
        <span className="message__sender">{message.senderOrganizationName}</span>
        <time dateTime={message.timestamp}>{formatMessageTime(new Date(message.timestamp), new Date())}</time>
      </div>
      {message.urgent && <span className="message__flag">Urgent</span>}
      <p className="message__content">{message.content}</p>
      {message.type === 'emsDispatch' &&
        (message.cancelledAt ? (
          <p className="message__cancelled" data-testid="dispatch-cancelled">
            {dispatchMessages.cancelled}
          </p>
        ) : (
          <button type="button" className="link-button" onClick={onLoadCase}>
            {texts.loadDispatchCase}
          </button>
        ))}
    </li>
  );
}
