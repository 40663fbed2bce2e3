import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { CLIENT_VERSION, feedbackClientInfo } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { errorMessage } from '../../lib/errors';
import { Banner } from '../../ui/Banner';
import { Modal } from '../../ui/Modal';

/** General feedback about the app: POST /v4/feedback with client 'ems-web' and the app version. */
export function FeedbackModal({ onClose }: { onClose: () => void }) {
  const [message, setMessage] = useState('');
  const textId = useId();
  const send = useMutation({
    mutationFn: (text: string) =>
      api.call('feedback', { body: { message: text, clientInfo: feedbackClientInfo(CLIENT_VERSION) } }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (message.trim() && !send.isPending) send.mutate(message.trim());
  };

  return (
    <Modal title="Feedback" onClose={onClose}>
      {send.isSuccess ? (
        <div className="stack">
          <Banner kind="success" message={send.data.message} />
          <button type="button" className="button button--primary button--block" onClick={onClose}>
            Close
          </button>
        </div>
      ) : (
        <form className="form" onSubmit={submit}>
          {send.isError && <Banner kind="error" message={errorMessage(send.error)} />}
          <div className="field">
            <label className="field__label" htmlFor={textId}>
              Your feedback
            </label>
            <textarea
              id={textId}
              className="field__input field__input--multiline"
              rows={5}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
            />
          </div>
          <div className="modal__actions">
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button" disabled={!message.trim() || send.isPending}>
              {send.isPending ? 'Sending...' : 'Send'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
