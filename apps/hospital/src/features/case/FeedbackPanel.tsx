import { RATING_STARS } from '@inbound/contract';
import { formatClock } from '../board/format';
import { useCaseFeedback } from './queries';

/** "★★★★☆" with the words a screen reader says ("4 out of 5 stars"). */
export function Stars({ rating }: { rating: number }) {
  const full = Math.max(0, Math.min(RATING_STARS, Math.round(rating)));
  return (
    <span className="stars" role="img" aria-label={`${full} out of ${RATING_STARS} stars`}>
      <span aria-hidden="true">
        {'★'.repeat(full)}
        <span className="stars-empty">{'☆'.repeat(RATING_STARS - full)}</span>
      </span>
    </span>
  );
}

/** The crews' ratings of the hand-over and their notes (issue 5 item 7), oldest first, live. */
export function FeedbackPanel({ hospitalId, caseId }: { hospitalId: string; caseId: string }) {
  const feedback = useCaseFeedback(hospitalId, caseId);
  return (
    <section className="panel feedback-panel" aria-labelledby="feedback-title">
      <h2 id="feedback-title">Crew feedback</h2>
      {feedback.isPending && <p role="status">Loading feedback…</p>}
      {feedback.isError && (
        <p role="alert" className="banner banner-error">
          {feedback.error.message}
        </p>
      )}
      {feedback.isSuccess &&
        (feedback.data.feedback.length === 0 ? (
          <p className="muted">The crew has not rated this hand-over yet.</p>
        ) : (
          <ul className="feedback-list">
            {feedback.data.feedback.map((f) => (
              <li key={f.id} className="feedback-item">
                <p className="feedback-head">
                  <Stars rating={f.rating} />
                  <span className="feedback-who">
                    {f.byName} · {f.agencyName} · <time dateTime={f.createdAt}>{formatClock(f.createdAt)}</time>
                  </span>
                </p>
                {f.notes.trim() !== '' ? (
                  <p className="feedback-notes">{f.notes}</p>
                ) : (
                  <p className="muted small">No note.</p>
                )}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
