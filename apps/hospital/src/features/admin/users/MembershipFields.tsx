/**
 * Where a user belongs: the hospitals whose ED they staff (checkboxes) and the agencies they crew for or
 * administer (none / member / admin per agency). Used by the invitation and the edit form.
 */
import type { AgencyMembershipRole, MembershipOptionsResponse } from '@inbound/contract';

export interface Memberships {
  hospitals: string[];
  agencies: { id: string; role: AgencyMembershipRole }[];
}

interface Props {
  idPrefix: string;
  options: MembershipOptionsResponse;
  value: Memberships;
  onChange: (next: Memberships) => void;
  errors?: { hospitals?: string | undefined; agencies?: string | undefined };
}

export function MembershipFields({ idPrefix, options, value, onChange, errors = {} }: Props) {
  const roleOf = (agencyId: string) => value.agencies.find((a) => a.id === agencyId)?.role ?? '';

  function toggleHospital(id: string, on: boolean) {
    const hospitals = on ? [...value.hospitals, id] : value.hospitals.filter((h) => h !== id);
    onChange({ ...value, hospitals });
  }

  function setAgencyRole(id: string, role: string) {
    const others = value.agencies.filter((a) => a.id !== id);
    onChange({
      ...value,
      agencies: role === 'member' || role === 'admin' ? [...others, { id, role }] : others,
    });
  }

  return (
    <div className="admin-form-grid">
      <fieldset aria-describedby={errors.hospitals ? `${idPrefix}-hospitals-error` : undefined}>
        <legend>ED staff of</legend>
        {options.hospitals.length === 0 && <p className="muted">No hospitals yet.</p>}
        {options.hospitals.map((hospital) => (
          <label className="choice" key={hospital.id}>
            <input
              type="checkbox"
              checked={value.hospitals.includes(hospital.id)}
              onChange={(event) => toggleHospital(hospital.id, event.target.checked)}
            />
            {hospital.name}
          </label>
        ))}
        {errors.hospitals && (
          <p id={`${idPrefix}-hospitals-error`} className="field-error">
            {errors.hospitals}
          </p>
        )}
      </fieldset>
      <fieldset aria-describedby={errors.agencies ? `${idPrefix}-agencies-error` : undefined}>
        <legend>Agencies</legend>
        {options.agencies.length === 0 && <p className="muted">No agencies yet.</p>}
        {options.agencies.map((agency) => {
          const selectId = `${idPrefix}-agency-${agency.id}`;
          return (
            <div className="membership-row" key={agency.id}>
              <label htmlFor={selectId}>{agency.name}</label>
              <select
                id={selectId}
                value={roleOf(agency.id)}
                onChange={(event) => setAgencyRole(agency.id, event.target.value)}
              >
                <option value="">Not a member</option>
                <option value="member">Member</option>
                <option value="admin">Agency admin</option>
              </select>
            </div>
          );
        })}
        {errors.agencies && (
          <p id={`${idPrefix}-agencies-error`} className="field-error">
            {errors.agencies}
          </p>
        )}
      </fieldset>
    </div>
  );
}
