import { useId, useState } from 'react';
import type { PatientInfoField, PatientInfoForm } from '@inbound/contract';
import type { StoredCase } from '../../lib/session';
import { Modal } from '../../ui/Modal';
import { patientInfoToSubmit, patientInfoValue, patientSummary, shownPatientInfoFields } from './caseModel';
import { savePatientInfo } from './mutations';

/** "Patient: name" and "DOB: date", when patient info exists (spec §2). */
export function PatientSummary({ caseData }: { caseData: StoredCase }) {
  const summary = patientSummary(caseData.patientInfo);
  if (!summary) return null;
  return (
    <dl className="patient-summary" aria-label="Patient summary">
      <div>
        <dt>Patient:</dt>
        <dd>{summary.name || '—'}</dd>
      </div>
      <div>
        <dt>DOB:</dt>
        <dd>{summary.dob || '—'}</dd>
      </div>
    </dl>
  );
}

/** The Patient Info button and its dynamic form (text, date, multiline_text; empty fields dropped). */
export function PatientInfoButton({ caseData, form }: { caseData: StoredCase; form: PatientInfoForm }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--secondary button--block"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Patient Info
      </button>
      {open && <PatientInfoModal caseData={caseData} form={form} onClose={() => setOpen(false)} />}
    </>
  );
}

function PatientInfoModal({
  caseData,
  form,
  onClose,
}: {
  caseData: StoredCase;
  form: PatientInfoForm;
  onClose: () => void;
}) {
  const fields = shownPatientInfoFields(form.fields);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field.key, patientInfoValue(caseData.patientInfo, field.key)])),
  );
  const formId = useId();
  const submit = () => {
    void savePatientInfo(form.id, patientInfoToSubmit(fields, values));
    onClose();
  };
  return (
    <Modal
      title={form.title || 'Patient Info'}
      onClose={onClose}
      wide
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button" form={formId}>
            Save
          </button>
        </>
      }
    >
      {form.subtitle && <p className="modal__message">{form.subtitle}</p>}
      <form
        id={formId}
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {fields.map((field) => (
          <PatientField
            key={field.key}
            field={field}
            value={values[field.key] ?? ''}
            onChange={(value) => setValues((current) => ({ ...current, [field.key]: value }))}
          />
        ))}
      </form>
    </Modal>
  );
}

function PatientField({
  field,
  value,
  onChange,
}: {
  field: PatientInfoField;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {field.name}
      </label>
      {field.type === 'multiline_text' ? (
        <textarea
          id={id}
          className="field__input field__input--multiline"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          id={id}
          className="field__input"
          type={field.type === 'date' ? 'date' : 'text'}
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </div>
  );
}
