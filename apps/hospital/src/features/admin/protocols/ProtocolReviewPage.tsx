/**
 * The protocol assistant's review list (issue 13): what crews of an agency asked, what they were
 * answered with which cited pages, and their thumbs up/down — to fix the agency's protocol library.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/client';
import { useAdminAgencies } from '../agencies/queries';
import './protocols.css';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const KIND_LABELS = {
  extractive: 'Quoted passages',
  llm: 'Written by the model, numbers checked',
  declined: 'Not covered',
};

export function ProtocolReviewPage() {
  const agencies = useAdminAgencies();
  const [agencyId, setAgencyId] = useState('');
  const chosen = agencyId || agencies.data?.[0]?.id || '';
  const review = useQuery({
    queryKey: ['admin', 'protocol-review', chosen],
    queryFn: () => api('protocolReview', { query: { agencyId: chosen } }),
    enabled: chosen !== '',
  });

  return (
    <>
      <div className="admin-page-head">
        <h2>Protocol questions</h2>
      </div>
      <div className="admin-toolbar">
        <div className="field">
          <label htmlFor="review-agency">Agency</label>
          <select id="review-agency" value={chosen} onChange={(event) => setAgencyId(event.target.value)}>
            {agencies.data?.map((agency) => (
              <option key={agency.id} value={agency.id}>
                {agency.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {review.isError && (
        <div role="alert" className="banner banner-error">
          {review.error.message}
        </div>
      )}
      {review.data?.items.length === 0 && <p>No questions yet.</p>}
      <ol className="protocol-review" aria-label="Protocol questions">
        {review.data?.items.map((item) => (
          <li key={item.questionUuid}>
            <p>
              <strong>{item.question}</strong> <span>· {when.format(new Date(item.askedAt))}</span> ·{' '}
              {KIND_LABELS[item.answerKind]}
            </p>
            <pre>{item.answer}</pre>
            {item.pageLinks.length > 0 && (
              <ol aria-label="Citations">
                {item.pageLinks.map((link) => (
                  <li key={link.ref} value={link.ref}>
                    <a href={link.url} target="_blank" rel="noopener noreferrer">
                      {link.documentTitle}
                      {link.protocolNumber ? ` (${link.protocolNumber})` : ''}, {link.printedPage}
                    </a>
                  </li>
                ))}
              </ol>
            )}
            <p>
              {item.feedback
                ? `${item.feedback.positive ? 'Helpful' : 'Not helpful'}${item.feedback.text ? `: ${item.feedback.text}` : ''}`
                : 'No feedback'}
            </p>
          </li>
        ))}
      </ol>
    </>
  );
}
