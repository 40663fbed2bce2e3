import { useId, useState } from 'react';
import { CASE_FEEDBACK_TYPE, RATING_STARS, messages } from '@inbound/contract';
import { caseOutbox } from '../../lib/caseOutbox';
import { caseMutations, type OutboxEvent } from '../../lib/outbox';
import { useSession } from '../../lib/session';
import { Modal } from '../../ui/Modal';

/** How long Submit waits for the server before saying the feedback waits on the device. */
export const FEEDBACK_ANSWER_WAIT_MS = 8_000;

type Outcome = { kind: 'sent' } | { kind: 'queued' } | { kind: 'failed'; message: string };

/** Queues the feedback and waits for what the outbox says of it: sent, refused, or still waiting. */
async function sendFeedback(caseId: string, rating: number, notes: string): Promise<Outcome> {
  const info = await caseOutbox.enqueue(
    caseMutations.caseFeedback(caseId, { rating, notes, type: CASE_FEEDBACK_TYPE }),
  );
  return new Promise<Outcome>((resolve) => {
    const done = (outcome: Outcome) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(outcome);
    };
    const timer = setTimeout(() => done({ kind: 'queued' }), FEEDBACK_ANSWER_WAIT_MS);
    const unsubscribe = caseOutbox.subscribe((event: OutboxEvent) => {
      if (event.type === 'sent' && event.mutation.key === info.key) done({ kind: 'sent' });
      if (event.type === 'rejected' && event.mutation.key === info.key) {
        // The crew retries from this modal; the refused change is not left in the outbox's list.
        void caseOutbox.discardRejected(info.key);
        done({ kind: 'failed', message: event.mutation.message || messages.caseFeedbackFailure });
      }
    });
  });
}

/**
 * The rating modal after a case (spec §2, §4, §8): 1–5 stars and notes; Submit needs a rating. Sent
 * through the outbox like every case change. After success (or once safely queued) the prompt is done;
 * after a failure, closing keeps it pending so it is asked again.
 */
export function CaseFeedbackModal({
  pending,
  onClose,
}: {
  pending: { caseId: string; hospitalName: string };
  onClose: () => void;
}) {
  const [rating, setRating] = useState(0);
  const [notes, setNotes] = useState('');
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const notesId = useId();

  const close = () => {
    // Spec §4: after a failure the prompt stays pending (asked again next time Start opens); otherwise done.
    if (outcome?.kind !== 'failed') useSession.setState({ caseFeedbackPending: null });
    onClose();
  };

  const submit = async () => {
    setSending(true);
    try {
      setOutcome(await sendFeedback(pending.caseId, rating, notes));
    } catch (error) {
      console.error('case feedback could not be queued', error);
      setOutcome({ kind: 'failed', message: messages.caseFeedbackFailure });
    }
    setSending(false);
  };

  const result =
    outcome?.kind === 'sent'
      ? messages.caseFeedbackSuccess
      : outcome?.kind === 'queued'
        ? messages.caseFeedbackQueued
        : (outcome?.message ?? null);

  return (
    <Modal
      title="Case Feedback"
      onClose={close}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={close}>
            Close
          </button>
          {outcome?.kind !== 'sent' && outcome?.kind !== 'queued' && (
            <button type="button" className="button" disabled={rating === 0 || sending} onClick={() => void submit()}>
              {outcome?.kind === 'failed' ? 'Try Again' : 'Submit'}
            </button>
          )}
        </>
      }
    >
      {result ? (
        <p className="modal__message" role={outcome?.kind === 'failed' ? 'alert' : 'status'}>
          {result}
        </p>
      ) : null}
      {(outcome === null || outcome.kind === 'failed') && (
        <div className="form">
          <p className="modal__message">{messages.caseFeedbackPrompt(pending.hospitalName)}</p>
          <div className="stars" role="group" aria-label="Rating">
            {Array.from({ length: RATING_STARS }, (_, index) => index + 1).map((stars) => (
              <button
                key={stars}
                type="button"
                className={stars <= rating ? 'star star--on' : 'star'}
                aria-label={`${stars} ${stars === 1 ? 'star' : 'stars'}`}
                aria-pressed={stars === rating}
                onClick={() => setRating(stars)}
              >
                ★
              </button>
            ))}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={notesId}>
              Notes
            </label>
            <textarea
              id={notesId}
              className="field__input field__input--multiline"
              value={notes}
              onChange={(event) => setNotes(event.target.value)}
            />
          </div>
        </div>
      )}
    </Modal>
  );
}
