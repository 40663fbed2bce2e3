import { useId, useState, type FormEvent } from 'react';
import { AdminTruckBody, type AdminTruck } from '@inbound/contract';
import { fieldErrors, type FieldErrors } from './formErrors';
import { TextField } from '../TextField';
import { useAddTruck, useRemoveTruck, useUpdateTruck } from './queries';

/**
 * An agency's trucks: add, rename, ALS/BLS, remove. Removal asks first; the server refuses a truck on an
 * open case (its message is shown) and retires one that past cases name.
 */
export function TrucksPanel({ agencyId, trucks }: { agencyId: string; trucks: readonly AdminTruck[] }) {
  const add = useAddTruck(agencyId);
  const [name, setName] = useState('');
  const [isALS, setIsALS] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = AdminTruckBody.safeParse({ name, isALS });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    add.mutate(parsed.data, { onSuccess: () => setName('') });
  }

  return (
    <section className="admin-subpanel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Trucks</h3>
      {trucks.length === 0 ? (
        <p className="muted">No truck yet: crews of this agency cannot start a case.</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Level</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {trucks.map((truck) => (
              <TruckRow key={truck.id} agencyId={agencyId} truck={truck} />
            ))}
          </tbody>
        </table>
      )}
      <form className="admin-inline-form" onSubmit={submit} noValidate aria-label="Add a truck">
        <TextField
          id={`${id}-name`}
          label="New truck name"
          value={name}
          error={errors.name}
          onChange={(value) => setName(value)}
        />
        <label className="check">
          <input type="checkbox" checked={isALS} onChange={(e) => setIsALS(e.target.checked)} />
          ALS (advanced life support)
        </label>
        <button type="submit" className="button button-primary" disabled={add.isPending}>
          Add truck
        </button>
      </form>
      {add.isError && (
        <div role="alert" className="banner banner-error">
          {add.error.message}
        </div>
      )}
    </section>
  );
}

function TruckRow({ agencyId, truck }: { agencyId: string; truck: AdminTruck }) {
  const update = useUpdateTruck(agencyId);
  const remove = useRemoveTruck(agencyId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(truck.name);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const failure =
    error ?? (update.isError ? update.error.message : null) ?? (remove.isError ? remove.error.message : null);

  function saveName(event: FormEvent) {
    event.preventDefault();
    const parsed = AdminTruckBody.shape.name.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'name is required');
      return;
    }
    setError(null);
    update.mutate({ truckId: truck.id, body: { name: parsed.data } }, { onSuccess: () => setEditing(false) });
  }

  return (
    <tr>
      <td>
        {editing ? (
          <form className="admin-inline-form" onSubmit={saveName} noValidate>
            <label className="visually-hidden" htmlFor={`${id}-name`}>
              Name of {truck.name}
            </label>
            <input
              id={`${id}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={error ? true : undefined}
            />
            <button type="submit" className="button button-small button-primary" disabled={update.isPending}>
              Save
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => {
                setEditing(false);
                setName(truck.name);
                setError(null);
              }}
            >
              Cancel
            </button>
          </form>
        ) : (
          truck.name
        )}
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
      </td>
      <td>
        <span className={`level ${truck.isALS ? 'level-als' : ''}`}>{truck.isALS ? 'ALS' : 'BLS'}</span>
      </td>
      <td className="admin-row-actions">
        {confirming ? (
          <span role="group" aria-label={`Confirm removing ${truck.name}`} className="admin-confirm">
            Remove {truck.name}?
            <button
              type="button"
              className="button button-small button-danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate(truck.id, { onSettled: () => setConfirming(false) })}
            >
              Yes, remove
            </button>
            <button type="button" className="button button-small" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <>
            {!editing && (
              <button
                type="button"
                className="button button-small"
                onClick={() => setEditing(true)}
                aria-label={`Rename ${truck.name}`}
              >
                Rename
              </button>
            )}
            <button
              type="button"
              className="button button-small"
              disabled={update.isPending}
              onClick={() => update.mutate({ truckId: truck.id, body: { isALS: !truck.isALS } })}
              aria-label={`Make ${truck.name} ${truck.isALS ? 'BLS' : 'ALS'}`}
            >
              Make {truck.isALS ? 'BLS' : 'ALS'}
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => setConfirming(true)}
              aria-label={`Remove ${truck.name}`}
            >
              Remove
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
