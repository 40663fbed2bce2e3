import type { BoardCase } from '@inbound/contract';
import { formatAge, formatGender } from './format';

interface AlertBannerProps {
  cases: BoardCase[];
  onAcknowledge: (caseId: string) => void;
  onDismiss: (caseId: string) => void;
  acknowledging: boolean;
}

/** The visual side of a priority-1 alert: stays until acknowledged or dismissed (it comes back in 2 min). */
export function AlertBanner({ cases, onAcknowledge, onDismiss, acknowledging }: AlertBannerProps) {
  if (cases.length === 0) return null;
  return (
    <div className="p1-alerts" role="alert" aria-live="assertive">
      {cases.map((c) => (
        <div key={c.id} className="p1-alert">
          <span className="p1-alert-text">
            <strong>▲ Priority 1 inbound:</strong> {c.complaint?.name}
            {' — '}
            {[formatAge(c), formatGender(c.gender)].filter(Boolean).join(' ')} · {c.agency.name} {c.truck.name} ·{' '}
            {c.caseNumber}
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
        </div>
      ))}
    </div>
  );
}
