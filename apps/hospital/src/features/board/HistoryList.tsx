import { memo } from 'react';
import { Link } from 'react-router';
import type { BoardCase } from '@inbound/contract';
import { formatAge, formatClock, formatGender } from './format';
import { PriorityBadge } from './PriorityBadge';

/** Memoised: its cases keep their identity across board reads unless one of them changed. */
export const HistoryList = memo(function HistoryList({
  hospitalId,
  cases,
}: {
  hospitalId: string;
  cases: BoardCase[];
}) {
  return (
    <section className="history" aria-labelledby={`history-${hospitalId}`}>
      <h2 id={`history-${hospitalId}`}>Arrived (last 12 hours)</h2>
      {cases.length === 0 ? (
        <p className="muted">No arrivals yet.</p>
      ) : (
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">Arrived</th>
              <th scope="col">Priority</th>
              <th scope="col">Complaint</th>
              <th scope="col">Patient</th>
              <th scope="col">Unit</th>
              <th scope="col">Case</th>
            </tr>
          </thead>
          <tbody>
            {cases.map((c) => (
              <tr key={c.id}>
                <td>{c.closedAt ? formatClock(c.closedAt) : ''}</td>
                <td>
                  <PriorityBadge priority={c.complaint?.priority ?? null} />
                </td>
                <td>{c.complaint?.name ?? '—'}</td>
                <td>{[formatAge(c), formatGender(c.gender)].filter(Boolean).join(' · ') || '—'}</td>
                <td>
                  {c.agency.name} · {c.truck.name}
                </td>
                <td>
                  <Link to={`/case/${hospitalId}/${c.id}`}>{c.caseNumber}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
});
