import { useState } from 'react';
import type { Case, Hospital } from '@inbound/contract';
import { lastKnownPosition } from '../../lib/positionSource';
import { useComplaintSet } from '../complaints/queries';
import { useHospitalStatuses } from '../hospitalStatus/useHospitalStatuses';
import { ADVICE_KIND_NAMES, adviceKindOf, adviseDestinations, type Advice, type AdviceKind } from './advice';
import styles from './DestinationAdvice.module.css';

/**
 * One line on the case screen for a stroke, STEMI or trauma case: the advised destination and why
 * ("Advised for stroke: Riverside Regional — Comprehensive stroke centre, 14 min, no diversion"); a
 * tap shows the whole ranking. Hidden once the advised hospital is the destination. Advice only.
 */
/** The case's advice: its kind and the ranking, or null when its complaint calls for none. */
export function useDestinationAdvice(
  caseData: Pick<Case, 'complaint' | 'complaintSet'>,
  hospitals: readonly Hospital[],
): { kind: AdviceKind; ranked: Advice[] } | null {
  const set = useComplaintSet(caseData.complaintSet);
  const statuses = useHospitalStatuses(hospitals);
  const complaint = set.data?.complaints.find((c) => c.id === caseData.complaint);
  const kind = adviceKindOf(complaint?.name);
  if (!kind || hospitals.length < 2) return null;
  const from = lastKnownPosition();
  // The ETA counts from where the truck was when it reported (the travel time from there), so the
  // ranking is the same on every render.
  const ranked = adviseDestinations(
    kind,
    hospitals,
    (h) => statuses.get(h.id) ?? h.activeStatuses,
    from,
    from ? Date.parse(from.recordedAt) : 0,
  );
  return { kind, ranked };
}

export function DestinationAdvice({
  advice,
  destination,
}: {
  advice: { kind: AdviceKind; ranked: Advice[] } | null;
  destination: Hospital | null;
}) {
  const [open, setOpen] = useState(false);
  if (!advice) return null;
  const { kind, ranked } = advice;
  const best = ranked[0];
  if (!best || (best.hospital.id === destination?.id && !open)) return null;
  return (
    <div className={styles.advice} data-testid="destination-advice">
      <button type="button" className={styles.line} aria-expanded={open} onClick={() => setOpen(!open)}>
        <strong>Advised for {ADVICE_KIND_NAMES[kind]}:</strong> {best.hospital.name} — {best.reason}
      </button>
      {open && (
        <ol className={styles.ranking} aria-label={`Hospitals ranked for ${ADVICE_KIND_NAMES[kind]}`}>
          {ranked.map((a) => (
            <li key={a.hospital.id}>
              <strong>{a.hospital.name}</strong> — {a.reason}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
