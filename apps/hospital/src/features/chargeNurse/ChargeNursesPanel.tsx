import { useState } from 'react';
import type { ChargeNursesResponse } from '@inbound/contract';
import { useChargeNurses, useSetChargeNurses } from './queries';
import './chargeNurse.css';

/**
 * Administration → Teams → Charge nurses (decision 0038): which of the hospital's ED staff get the
 * offload alert (Web Push and every console they have open) when a truck waits past the threshold.
 */
export function ChargeNursesPanel({ hospitalId }: { hospitalId: string }) {
  const list = useChargeNurses(hospitalId);
  const save = useSetChargeNurses(hospitalId);
  if (!list.data) return null;
  return (
    <ChargeNursesForm
      // A fresh form per saved list: the checkboxes start from what the server holds.
      key={`${hospitalId}:${list.data.chargeNurses.map((c) => c.userId).join(',')}`}
      current={list.data}
      saving={save.isPending}
      error={save.error?.message ?? null}
      onSave={(userIds) => save.mutate(userIds)}
    />
  );
}

export function ChargeNursesForm({
  current,
  saving,
  error,
  onSave,
}: {
  current: ChargeNursesResponse;
  saving: boolean;
  error: string | null;
  onSave: (userIds: string[]) => void;
}) {
  const [chosen, setChosen] = useState(() => new Set(current.chargeNurses.map((c) => c.userId)));
  const toggle = (userId: string) => {
    const next = new Set(chosen);
    if (!next.delete(userId)) next.add(userId);
    setChosen(next);
  };
  return (
    <form
      className="admin-form panel charge-nurses"
      aria-label="Charge nurses"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(current.staff.filter((s) => chosen.has(s.userId)).map((s) => s.userId));
      }}
    >
      <h3>Charge nurses</h3>
      <p className="muted">
        Alerted on their phone and every console they have open when an ambulance waits past the offload threshold. With
        nobody chosen, every console of the hospital shows the alert on the board.
      </p>
      <ul className="charge-nurses-list">
        {current.staff.map((s) => (
          <li key={s.userId}>
            <label>
              <input type="checkbox" checked={chosen.has(s.userId)} onChange={() => toggle(s.userId)} /> {s.name}
            </label>
          </li>
        ))}
      </ul>
      {error && (
        <div role="alert" className="banner banner-error">
          {error}
        </div>
      )}
      <button type="submit" className="button button-primary" disabled={saving}>
        Save charge nurses
      </button>
    </form>
  );
}
