import { useId, useState, type FormEvent } from 'react';
import { messages, MONITOR_PATIENT_ID_DIGITS, type Monitor } from '@inbound/contract';
import { Modal } from '../../ui/Modal';
import { linkMonitor } from './monitorIntegration';

/** Spec §5: digits only, at most four — anything else typed is dropped as it is typed. */
export function cleanPatientId(text: string): string {
  return text.replace(/\D/g, '').slice(0, MONITOR_PATIENT_ID_DIGITS);
}

/**
 * The monitor form (spec §5): a monitor (placeholder Select Monitor; preselected when the team has
 * exactly one) and the patient id the monitor shows (label Enter PT ID, digits only, max 4, placeholder
 * 0000). Save stays disabled until both are set; it links them through the outbox and shows at once.
 */
export function MonitorForm({
  monitors,
  current,
  onClose,
}: {
  monitors: readonly Monitor[];
  current: { monitorId: string; patientId: string } | null;
  onClose: () => void;
}) {
  const selectId = useId();
  const inputId = useId();
  const only = monitors.length === 1 ? monitors[0]!._id : '';
  const known = current && monitors.some((monitor) => monitor._id === current.monitorId) ? current.monitorId : '';
  const [monitorId, setMonitorId] = useState(known || only);
  const [patientId, setPatientId] = useState(current?.patientId ?? '');
  const complete = monitorId !== '' && patientId !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const monitor = monitors.find((item) => item._id === monitorId);
    if (!monitor || patientId === '') return;
    void linkMonitor(monitor, patientId);
    onClose();
  };

  return (
    <Modal
      title="Monitor"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={`${selectId}-form`} className="button button--primary" disabled={!complete}>
            Save
          </button>
        </>
      }
    >
      <form id={`${selectId}-form`} className="form monitor-form" onSubmit={submit}>
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Monitor
          </label>
          <select
            id={selectId}
            className="field__input"
            value={monitorId}
            onChange={(event) => setMonitorId(event.target.value)}
          >
            <option value="" disabled>
              {messages.selectMonitor}
            </option>
            {monitors.map((monitor) => (
              <option key={monitor._id} value={monitor._id}>
                {monitor.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            {messages.enterPtId}
          </label>
          <input
            id={inputId}
            className="field__input monitor-form__pt-id"
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            maxLength={MONITOR_PATIENT_ID_DIGITS}
            placeholder="0000"
            value={patientId}
            onChange={(event) => setPatientId(cleanPatientId(event.target.value))}
          />
        </div>
      </form>
    </Modal>
  );
}
