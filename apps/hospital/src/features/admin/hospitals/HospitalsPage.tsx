import { useState } from 'react';
import '../agencies/catalog.css';
import { HospitalForm } from './HospitalForm';
import { ArrivalSettingsForm } from '../../arrival/ArrivalSettingsForm';
import { useAdminHospitals, useSaveHospital } from './queries';

/** Hospitals of the organisation: a table of all of them and the chosen one's settings. */
export function HospitalsPage() {
  const hospitals = useAdminHospitals();
  const save = useSaveHospital();
  const [selected, setSelected] = useState<string | 'new' | null>(null);
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const current = selected && selected !== 'new' ? (hospitals.data?.find((h) => h.id === selected) ?? null) : null;

  const choose = (id: string | 'new') => {
    save.reset();
    setSavedNote(null);
    setSelected(id);
  };

  return (
    <div className="admin-page">
      <div className="admin-page-head">
        <h2>Hospitals</h2>
        <button type="button" className="button button-primary" onClick={() => choose('new')}>
          New hospital
        </button>
      </div>
      {hospitals.isPending && <p role="status">Loading hospitals…</p>}
      {hospitals.isError && (
        <div role="alert" className="banner banner-error">
          {hospitals.error.message}
        </div>
      )}
      {hospitals.data && (
        <table className="admin-table">
          <caption className="visually-hidden">Hospitals</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Platform</th>
              <th scope="col">ED phone numbers</th>
              <th scope="col">Features on</th>
              <th scope="col">Location</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {hospitals.data.map((h) => (
              <tr key={h.id} aria-selected={selected === h.id}>
                <td className="admin-strong">{h.name}</td>
                <td>{h.nonTwiage ? 'Phone only' : 'On the platform'}</td>
                <td>
                  {h.edPhoneNumbers.length === 0 ? (
                    <span className="muted">None</span>
                  ) : (
                    <ul className="admin-plain-list">
                      {h.edPhoneNumbers.map((p) => (
                        <li key={p.name}>
                          {p.name}: <span className="admin-nowrap">{p.phoneNumber}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>{h.supportedFeatures.filter((f) => f.enabled).length}</td>
                <td>
                  {h.location ? (
                    <span className="coords">
                      {h.location.latitude.toFixed(4)}, {h.location.longitude.toFixed(4)}
                    </span>
                  ) : (
                    <span className="muted">Unknown</span>
                  )}
                </td>
                <td className="admin-row-actions">
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Edit ${h.name}`}
                    onClick={() => choose(h.id)}
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
      {selected !== null && (selected === 'new' || current) && (
        <section className="panel admin-editor" aria-label={current ? `Hospital ${current.name}` : 'New hospital'}>
          <h2>{current ? current.name : 'New hospital'}</h2>
          <HospitalForm
            key={selected}
            hospital={current}
            saving={save.isPending}
            saveError={save.isError ? save.error.message : null}
            onSave={(body) =>
              save.mutate(
                { id: current?.id ?? null, body },
                {
                  onSuccess: (saved) => {
                    setSavedNote(`Saved ${saved.name}. Crews and ED staff see the change at their next read.`);
                    setSelected(null);
                  },
                },
              )
            }
            onCancel={() => setSelected(null)}
          />
          {current && <ArrivalSettingsForm hospitalId={current.id} />}
        </section>
      )}
    </div>
  );
}
