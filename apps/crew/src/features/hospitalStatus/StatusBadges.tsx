import type { HospitalStatus } from '@inbound/contract';

const PRIORITY_LABEL: Record<HospitalStatus['priority'], string> = { critical: 'critical', urgent: 'urgent' };

/** Critical red, urgent amber (spec §9); critical first. The priority is part of the accessible text. */
export function StatusBadges({ statuses }: { statuses: readonly HospitalStatus[] }) {
  const ordered = [...statuses].sort((a, b) => rank(a) - rank(b));
  return ordered.map((status) => (
    <span key={status._id} className={`status-badge status-badge--${status.priority}`}>
      <span className="visually-hidden">{PRIORITY_LABEL[status.priority]}: </span>
      {status.status}
    </span>
  ));
}

function rank(status: HospitalStatus): number {
  return status.priority === 'critical' ? 0 : 1;
}
