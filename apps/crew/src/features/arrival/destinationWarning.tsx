/**
 * The warning before a destination the crew may not want (issue 15 item 4): a hospital in a critical
 * status (already marked red in the picker), or the hospital that diverted this case. Advice, never a
 * block: "Choose anyway" goes ahead. The picker and the one-tap choices both call `pickDestination`.
 */
import type { Hospital, HospitalStatus } from '@inbound/contract';
import { create } from 'zustand';
import { useSession } from '../../lib/session';
import { Modal } from '../../ui/Modal';
import { rememberHospital } from '../case/HospitalSelector';
import { chooseHospital } from '../case/mutations';
import { queryClient } from '../../lib/queryClient';
import { arrivalKey, type ArrivalState } from './arrivalState';

interface Pending {
  hospital: Pick<Hospital, 'id' | 'name'>;
  reasons: string[];
}

const usePending = create<{ pending: Pending | null }>()(() => ({ pending: null }));

function go(hospitalId: string): void {
  rememberHospital(hospitalId);
  void chooseHospital(hospitalId);
}

/** Why choosing the hospital deserves a second look; empty: nothing to warn about. */
export function destinationWarnings(
  hospital: Pick<Hospital, 'id' | 'name'>,
  statuses: readonly HospitalStatus[],
  diversion: ArrivalState['diversion'],
): string[] {
  const reasons = statuses
    .filter((s) => s.priority === 'critical')
    .map((s) => `${hospital.name} reports a critical status: ${s.status}.`);
  if (diversion && diversion.hospitalId === hospital.id)
    reasons.unshift(`${hospital.name} diverted this ambulance: ${diversion.reason}.`);
  return reasons;
}

/** Chooses the destination, or asks first when there is something to warn about. */
export function pickDestination(hospital: Pick<Hospital, 'id' | 'name'>, statuses: readonly HospitalStatus[]): void {
  const caseId = useSession.getState().case?.id;
  if (caseId && useSession.getState().case?.destinationHospital?.id === hospital.id) return go(hospital.id);
  const diversion = caseId ? (queryClient.getQueryData<ArrivalState>(arrivalKey(caseId))?.diversion ?? null) : null;
  const reasons = destinationWarnings(hospital, statuses, diversion);
  if (reasons.length === 0) return go(hospital.id);
  usePending.setState({ pending: { hospital, reasons } });
}

/** The confirmation dialog, rendered once on the case screen. */
export function DestinationWarning() {
  const pending = usePending((s) => s.pending);
  if (!pending) return null;
  const close = () => usePending.setState({ pending: null });
  return (
    <Modal
      title="Warning"
      role="alertdialog"
      onClose={close}
      actions={
        <>
          <button
            type="button"
            className="button"
            onClick={() => {
              close();
              go(pending.hospital.id);
            }}
          >
            Choose anyway
          </button>
          <button type="button" className="button button--secondary" onClick={close}>
            Cancel
          </button>
        </>
      }
    >
      {pending.reasons.map((r) => (
        <p key={r} className="destination-warning">
          {r}
        </p>
      ))}
      <p>Choose {pending.hospital.name} as the destination anyway?</p>
    </Modal>
  );
}
