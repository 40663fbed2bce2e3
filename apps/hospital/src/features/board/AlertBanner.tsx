import { useState } from 'react';
import type { BoardCase } from '@inbound/contract';
import { formatAge, formatGender } from './format';

interface AlertBannerProps {
  cases: BoardCase[];
  onAcknowledge: (caseId: string) => void;
  onDismiss: (caseId: string) => void;
  acknowledging: boolean;
}

/**
 * The visual side of priority-1 alerts: ONE banner with a line per unacknowledged case, so several at
 * once do not push the board below the fold. A line stays until its case is acknowledged or hidden (it
 * comes back in 2 min). Newest first. Many at once (a mass-casualty incident) show the first ALERT_LINES and a button
 * for the rest, so the banner never hides the board it is about.
 */
export const ALERT_LINES = 3;

export function AlertBanner({ cases, onAcknowledge, onDismiss, acknowledging }: AlertBannerProps) {
  const [showAll, setShowAll] = useState(false);
  if (cases.length === 0) return null;
  // Newest first (issue 16, item 9): the case that just came in is the one staff must see, not the
  // oldest, which has been on the banner for minutes already.
  const newestFirst = [...cases].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
  const shown = showAll ? newestFirst : newestFirst.slice(0, ALERT_LINES);
  const more = cases.length - shown.length;
  return (
    <div className="p1-alert" role="alert" aria-live="assertive">
      <strong className="p1-alert-head">▲ Priority 1 inbound{cases.length > 1 ? ` (${cases.length})` : ''}</strong>
      <ul className="p1-alert-list">
        {shown.map((c) => (
          <li key={c.id} className="p1-alert-case">
            <span className="p1-alert-text">
              {c.complaint?.name}
              {' — '}
              {[
                [formatAge(c), formatGender(c.gender)].filter(Boolean).join(' '),
                `${c.agency.name} ${c.truck.name}`,
                c.caseNumber,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            <span className="p1-alert-actions">
              <button
                type="button"
                className="button button-ack"
                disabled={acknowledging}
                onClick={() => onAcknowledge(c.id)}
              >
                Acknowledge
              </button>
              <button type="button" className="button" onClick={() => onDismiss(c.id)}>
                Hide for 2 min
              </button>
            </span>
          </li>
        ))}
      </ul>
      {(more > 0 || (showAll && cases.length > ALERT_LINES)) && (
        <button type="button" className="button p1-alert-more" onClick={() => setShowAll(!showAll)}>
          {showAll ? 'Show fewer' : `Show ${more} more priority-1 ${more === 1 ? 'case' : 'cases'}`}
        </button>
      )}
    </div>
  );
}
