import { messages, type Hospital } from '@inbound/contract';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Modal } from '../../ui/Modal';
import { StatusBadges } from '../hospitalStatus/StatusBadges';
import { useHospitalStatuses } from '../hospitalStatus/useHospitalStatuses';
import { pickDestination } from '../arrival/destinationWarning';

/**
 * The hospital selector at the bottom of the case screen (spec §2), with the banner for a hospital that
 * is not on the platform: 'No data will be sent to the hospital.'
 */
export function HospitalBar({
  hospitals,
  destination,
  onOpenPicker,
}: {
  hospitals: readonly Hospital[];
  destination: Hospital | null;
  onOpenPicker: () => void;
}) {
  if (hospitals.length === 0) return null;
  return (
    <div className="hospital-bar">
      {destination?.nonTwiage && (
        <p className="hospital-bar__banner" role="note">
          {messages.noDataToHospital}
        </p>
      )}
      <button type="button" className="hospital-bar__button" aria-haspopup="dialog" onClick={onOpenPicker}>
        {destination ? (
          <>
            <span className="hospital-bar__label">Hospital</span> <span>{destination.name}</span>
          </>
        ) : (
          'Select Hospital'
        )}
      </button>
    </div>
  );
}

export function HospitalPicker({
  hospitals,
  selectedId,
  onClose,
}: {
  hospitals: readonly Hospital[];
  selectedId: string | null;
  onClose: () => void;
}) {
  const statuses = useHospitalStatuses(hospitals);
  return (
    <Modal
      title="Select Hospital"
      onClose={onClose}
      wide
      actions={
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
      }
    >
      <ul className="hospital-list">
        {hospitals.map((hospital) => (
          <li key={hospital.id}>
            <button
              type="button"
              className={hospital.id === selectedId ? 'hospital-option hospital-option--on' : 'hospital-option'}
              aria-pressed={hospital.id === selectedId}
              onClick={() => {
                // Issue 15: asks first for a hospital in a critical status or the one that diverted the case.
                pickDestination(hospital, statuses.get(hospital.id) ?? hospital.activeStatuses);
                onClose();
              }}
            >
              <span className="hospital-option__name">{hospital.name}</span>
              <StatusBadges statuses={statuses.get(hospital.id) ?? hospital.activeStatuses} />
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

/** Up to this many hospitals are offered as one-tap choices on the case screen; more go in the picker. */
export const MAX_HOSPITAL_CHOICES = 4;

const RECENT_KEY = 'inbound.recentHospitals';
const recentListeners = new Set<() => void>();

function readRecent(): string {
  try {
    return localStorage.getItem(RECENT_KEY) ?? '[]';
  } catch {
    return '[]';
  }
}

/** Remembers a chosen destination first in the list (no patient data: hospital ids only). */
export function rememberHospital(hospitalId: string): void {
  let ids: string[] = [];
  try {
    ids = JSON.parse(readRecent()) as string[];
  } catch {
    ids = [];
  }
  const next = [hospitalId, ...ids.filter((id) => id !== hospitalId)].slice(0, 20);
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(next));
  } catch {
    // A full or blocked storage only loses the ordering.
  }
  recentListeners.forEach((listener) => listener());
}

function useRecentHospitalIds(): string[] {
  const raw = useSyncExternalStore(
    (listener) => {
      recentListeners.add(listener);
      return () => recentListeners.delete(listener);
    },
    readRecent,
    () => '[]',
  );
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The team's hospitals, most recently chosen first, then in the team's order. */
export function orderByRecent(hospitals: readonly Hospital[], recentIds: readonly string[]): Hospital[] {
  const rank = (hospital: Hospital) => {
    const index = recentIds.indexOf(hospital.id);
    return index === -1 ? Number.MAX_SAFE_INTEGER : index;
  };
  return hospitals
    .map((hospital, index) => ({ hospital, index }))
    .sort((a, b) => rank(a.hospital) - rank(b.hospital) || a.index - b.index)
    .map(({ hospital }) => hospital);
}

/**
 * The destination as one tap (issue 16, item 3): with a few hospitals, each is a button with its live
 * status badges, the most recently used first, the chosen one pressed. Tapping the chosen one again
 * does nothing (spec §4: the same hospital is ignored).
 */
export function HospitalChoices({
  hospitals,
  destination,
  advice,
  advisedId,
}: {
  hospitals: readonly Hospital[];
  destination: Hospital | null;
  /** Destination advice for the case (issue 15), shown with the choices. */
  advice?: ReactNode;
  /** The advised hospital: its button is starred (the phone has no room for the advice line). */
  advisedId?: string | null;
}) {
  const statuses = useHospitalStatuses(hospitals);
  const recent = useRecentHospitalIds();
  // The order is taken when the case screen opens, so a tap never moves the buttons under the finger.
  const [ordered] = useState(() => orderByRecent(hospitals, recent));
  const shown = ordered.length === hospitals.length ? ordered : orderByRecent(hospitals, recent);
  return (
    <div className="hospital-bar hospital-bar--choices">
      {destination?.nonTwiage && (
        <p className="hospital-bar__banner" role="note">
          {messages.noDataToHospital}
        </p>
      )}
      {advice}
      <div className="hospital-choices" role="group" aria-label="Destination hospital">
        {shown.map((hospital) => {
          const chosen = hospital.id === destination?.id;
          const active = statuses.get(hospital.id) ?? hospital.activeStatuses;
          return (
            <button
              key={hospital.id}
              type="button"
              className={chosen ? 'hospital-choice hospital-choice--on' : 'hospital-choice'}
              aria-pressed={chosen}
              onClick={() => pickDestination(hospital, active)}
            >
              <span className="hospital-choice__name">
                {hospital.id === advisedId && <span aria-hidden="true">★ </span>}
                {hospital.name}
                {hospital.id === advisedId && <span className="visually-hidden"> (advised)</span>}
              </span>
              {active.length > 0 && (
                <span className="hospital-choice__badges">
                  <StatusBadges statuses={active} />
                </span>
              )}
            </button>
          );
        })}
      </div>
    </div>
  );
}
