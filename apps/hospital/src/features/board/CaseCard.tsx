import { memo } from 'react';
import { Link } from 'react-router';
import type { BoardCase } from '@inbound/contract';
import { formatAge, formatClock, formatDistance, formatGender } from './format';
import { PriorityBadge, priorityClass } from './PriorityBadge';
import { Elapsed, FieldValue } from './Ticking';

/**
 * Props are the card's data (kept referentially stable by React Query's structural sharing when the case
 * did not change) and primitives, so a board read caused by one crew's location report re-renders that
 * crew's card only; ticking times render on their own (Ticking.tsx).
 */
interface CaseCardProps {
  hospitalId: string;
  card: BoardCase;
  /** Estimated minutes to arrival (null: no position yet), and the straight-line distance. */
  etaMinutes: number | null;
  distanceKm: number | null;
  alerting: boolean;
}

/** Key tags first: those carrying values (last known well, glucose, BP…), then the plain ones. */
function tagsByImportance(card: BoardCase) {
  return [...card.tags].sort((a, b) => Number(b.fields.length > 0) - Number(a.fields.length > 0));
}

export const CaseCard = memo(function CaseCard({ hospitalId, card, etaMinutes, distanceKm, alerting }: CaseCardProps) {
  const priority = card.complaint?.priority ?? null;
  const who = [formatAge(card), formatGender(card.gender)].filter(Boolean).join(' · ');
  const tags = tagsByImportance(card);
  return (
    <li>
      <Link
        to={`/case/${hospitalId}/${card.id}`}
        className={`case-card ${priorityClass(priority)}${alerting ? ' case-card-alerting' : ''}`}
        aria-label={`${card.complaint?.name ?? 'No complaint yet'}, priority ${priority ?? 'unknown'}, case ${card.caseNumber}`}
        data-testid="case-card"
      >
        <div className="case-card-head">
          <PriorityBadge priority={priority} />
          <span className="case-eta">
            {etaMinutes !== null && distanceKm !== null ? (
              <>
                <strong>~{etaMinutes} min</strong>
                <span className="case-eta-note">est. · {formatDistance(distanceKm)}</span>
              </>
            ) : (
              <span className="case-eta-note">ETA unknown: no position yet</span>
            )}
          </span>
        </div>
        <div className="case-card-title">
          <h3 className="case-complaint">
            {card.complaint && (
              <span className="complaint-swatch" style={{ background: card.complaint.color }} aria-hidden="true" />
            )}
            {card.complaint?.name ?? 'Complaint not chosen yet'}
          </h3>
          <p className="case-patient">{who || 'Age and gender not given yet'}</p>
        </div>
        {card.diversion && (
          <p className="case-diversion">
            Diverted: {card.diversion.reason} — waiting for the crew to choose another hospital
          </p>
        )}
        {tags.length > 0 && (
          <ul className="case-tags">
            {tags.slice(0, 6).map((tag) => (
              <li key={tag.id} className={tag.fields.length > 0 ? 'tag tag-data' : 'tag'}>
                {tag.fields.length > 0
                  ? tag.fields.map((f) => (
                      <span key={f.key} className="tag-field">
                        <span className="tag-name">{f.name || tag.name}</span>{' '}
                        <strong>
                          <FieldValue field={f} />
                        </strong>
                      </span>
                    ))
                  : tag.name}
              </li>
            ))}
            {tags.length > 6 && <li className="tag tag-more">+{tags.length - 6} more</li>}
          </ul>
        )}
        <div className="case-card-foot">
          <span>
            {card.agency.name} · {card.truck.name}{' '}
            <span className={card.truck.isALS ? 'level level-als' : 'level level-bls'}>
              {card.truck.isALS ? 'ALS' : 'BLS'}
            </span>
          </span>
          <span title={`Started ${formatClock(card.startedAt)}`}>
            Started <Elapsed since={card.startedAt} /> ago · {card.caseNumber}
          </span>
        </div>
        <div className="case-card-foot">
          <span className="counts">
            <span className={card.unreadChat > 0 ? 'count count-unread' : 'count'}>
              {card.unreadChat} unread {card.unreadChat === 1 ? 'message' : 'messages'}
            </span>
            <span className="count">{card.mediaCount} media</span>
          </span>
          {card.acknowledgement ? (
            <span className="ack ack-done">
              ✓ Seen by {card.acknowledgement.byName} {formatClock(card.acknowledgement.at)}
            </span>
          ) : (
            <span className="ack ack-pending">Not acknowledged</span>
          )}
        </div>
      </Link>
    </li>
  );
});
