import { messages, type Hospital } from '@inbound/contract';
import { Modal } from '../../ui/Modal';
import { StatusBadges } from '../hospitalStatus/StatusBadges';
import { useHospitalStatuses } from '../hospitalStatus/useHospitalStatuses';
import { chooseHospital } from './mutations';

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
                void chooseHospital(hospital.id);
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
