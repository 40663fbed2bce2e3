import type { Hospital } from '@inbound/contract';
import { StatusBadges } from './StatusBadges';
import { useHospitalStatuses } from './useHospitalStatuses';
import './hospitalStatus.css';

/**
 * On Start: the team's hospitals that have an active status right now (diversion, CT down, …), live,
 * so a crew sees it before it picks a destination. Nothing when all is normal.
 */
export function HospitalStatusList({ hospitals }: { hospitals: readonly Hospital[] }) {
  const statuses = useHospitalStatuses(hospitals);
  const affected = hospitals.filter((hospital) => (statuses.get(hospital.id) ?? []).length > 0);
  if (affected.length === 0) return null;
  return (
    <section className="hospital-statuses" aria-label="Hospital status">
      <h2 className="hospital-statuses__title">Hospital status</h2>
      <ul className="hospital-statuses__list">
        {affected.map((hospital) => (
          <li key={hospital.id} className="hospital-statuses__item">
            <span className="hospital-statuses__name">{hospital.name}</span>{' '}
            <StatusBadges statuses={statuses.get(hospital.id) ?? []} />
          </li>
        ))}
      </ul>
    </section>
  );
}
