import { useState } from 'react';
import './catalog.css';
import { useAdminComplaintSets } from '../complaintSets/queries';
import { useAdminHospitals } from '../hospitals/queries';
import { AgencyForm } from './AgencyForm';
import { TrucksPanel } from './TrucksPanel';
import { useAdminAgencies, useAdminAgency, useSaveAgency } from './queries';

/** Selected agency: an id to edit, 'new' to create one, null for the list alone. */
type Selection = string | 'new' | null;

/**
 * Agencies (EMS teams) of the organisation: a table of all of them, and below it the chosen one's
 * settings and trucks. What is saved is what the agency's crews get at their next read.
 */
export function AgenciesPage() {
  const agencies = useAdminAgencies();
  const [selected, setSelected] = useState<Selection>(null);
  const [savedNote, setSavedNote] = useState<string | null>(null);

  return (
    <div className="admin-page">
      <div className="admin-page-head">
        <h2>Agencies</h2>
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            setSelected('new');
            setSavedNote(null);
          }}
        >
          New agency
        </button>
      </div>
      {agencies.isPending && <p role="status">Loading agencies…</p>}
      {agencies.isError && (
        <div role="alert" className="banner banner-error">
          {agencies.error.message}
        </div>
      )}
      {agencies.data && (
        <table className="admin-table">
          <caption className="visually-hidden">Agencies</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Complaint set</th>
              <th scope="col">Auto-close</th>
              <th scope="col">Hospitals</th>
              <th scope="col">Trucks</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {agencies.data.map((a) => (
              <tr key={a.id} aria-selected={selected === a.id}>
                <td className="admin-strong">{a.name}</td>
                <td>{a.complaintSet}</td>
                <td>{a.maxCaseLength} min</td>
                <td>{a.hospitalCount}</td>
                <td>{a.truckCount}</td>
                <td className="admin-row-actions">
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Edit ${a.name}`}
                    onClick={() => {
                      setSelected(a.id);
                      setSavedNote(null);
                    }}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {savedNote && (
        <p role="status" className="banner banner-ok">
          {savedNote}
        </p>
      )}
      {selected !== null && (
        <AgencyEditor
          key={selected}
          agencyId={selected === 'new' ? null : selected}
          onDone={(note) => {
            setSavedNote(note);
            if (note === null) setSelected(null);
          }}
          onCreated={(id) => setSelected(id)}
        />
      )}
    </div>
  );
}

function AgencyEditor({
  agencyId,
  onDone,
  onCreated,
}: {
  agencyId: string | null;
  onDone: (note: string | null) => void;
  onCreated: (id: string) => void;
}) {
  const agency = useAdminAgency(agencyId);
  const hospitals = useAdminHospitals();
  const sets = useAdminComplaintSets();
  const save = useSaveAgency();

  const failed = [agency, hospitals, sets].find((q) => q.isError);
  if (failed?.error) {
    return (
      <div role="alert" className="banner banner-error">
        {failed.error.message}
      </div>
    );
  }
  if ((agencyId !== null && agency.isPending) || !hospitals.data || !sets.data) {
    return <p role="status">Loading…</p>;
  }

  const current = agencyId === null ? null : (agency.data ?? null);
  return (
    <section className="panel admin-editor" aria-label={current ? `Agency ${current.name}` : 'New agency'}>
      <h2>{current ? current.name : 'New agency'}</h2>
      <AgencyForm
        agency={current}
        hospitals={hospitals.data.map((h) => ({
          id: h.id,
          name: h.nonTwiage ? `${h.name} (not on the platform)` : h.name,
        }))}
        complaintSets={sets.data.map((s) => s.name)}
        saving={save.isPending}
        saveError={save.isError ? save.error.message : null}
        onSave={(body) =>
          save.mutate(
            { id: agencyId, body },
            {
              onSuccess: (saved) => {
                onDone(`Saved ${saved.name}. Crews see the change the next time their app reads the team.`);
                if (agencyId === null) onCreated(saved.id);
              },
            },
          )
        }
        onCancel={() => onDone(null)}
      />
      {current && <TrucksPanel agencyId={current.id} trucks={current.trucks} />}
    </section>
  );
}
