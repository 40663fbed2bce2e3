import { formatClock } from '../board/format';
import { useDivertedAway } from './queries';

/**
 * Cases that were coming here and now go elsewhere (a diversion or the crew's own change): the case
 * number and where it went — no patient data, the case is no longer this hospital's to read.
 */
export function DivertedAwayList({ hospitalId }: { hospitalId: string }) {
  const away = useDivertedAway(hospitalId);
  const rows = away.data?.divertedAway ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="diverted-away" aria-labelledby={`diverted-${hospitalId}`}>
      <h2 id={`diverted-${hospitalId}`}>No longer coming here</h2>
      <ul>
        {rows.map((r) => (
          <li key={`${r.caseId} ${r.at}`} data-testid="diverted-away">
            Case {r.caseNumber} <strong>diverted to {r.toHospitalName}</strong> at {formatClock(r.at)}
            {r.reason ? <span className="muted"> — our reason: {r.reason}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
