import { useId, useState, type FormEvent } from 'react';
import {
  AdminCreateAgencyBody,
  MAX_CASE_LENGTH_MAX,
  MAX_CASE_LENGTH_MIN,
  PATIENT_INFO_FIELD_TYPES,
  type AdminAgency,
} from '@inbound/contract';
import { FieldError, fieldErrors, invalidProps, type FieldErrors } from './formErrors';
import { TextField } from '../TextField';

export interface Option {
  id: string;
  name: string;
}

interface Draft {
  name: string;
  complaintSet: string;
  maxCaseLength: string;
  hospitalIds: string[];
  monitors: { id?: string; name: string; type: string }[];
  emtLevels: { name: string }[];
  hasForm: boolean;
  formTitle: string;
  formSubtitle: string;
  formFields: { key: string; name: string; type: string }[];
}

const FIELD_TYPE_LABELS: Record<string, string> = { text: 'Text', date: 'Date', multiline_text: 'Several lines' };

function draftOf(agency: AdminAgency | null): Draft {
  return {
    name: agency?.name ?? '',
    complaintSet: agency?.complaintSet ?? '',
    maxCaseLength: String(agency?.maxCaseLength ?? 240),
    hospitalIds: agency?.hospitalIds ?? [],
    monitors: agency?.monitors.map((m) => ({ ...m })) ?? [],
    emtLevels: agency?.emtLevels ?? [{ name: 'EMT' }, { name: 'Paramedic' }],
    hasForm: agency ? agency.patientInfoForm !== null : true,
    formTitle: agency?.patientInfoForm?.title ?? 'Patient Info',
    formSubtitle: agency?.patientInfoForm?.subtitle ?? '',
    formFields: agency?.patientInfoForm?.fields.map((f) => ({ ...f })) ?? [
      { key: 'firstName', name: 'First Name', type: 'text' },
      { key: 'lastName', name: 'Last Name', type: 'text' },
      { key: 'dateOfBirth', name: 'DOB', type: 'date' },
    ],
  };
}

function bodyOf(d: Draft): unknown {
  return {
    name: d.name,
    complaintSet: d.complaintSet,
    maxCaseLength: d.maxCaseLength.trim() === '' ? undefined : Number(d.maxCaseLength),
    hospitalIds: d.hospitalIds,
    monitors: d.monitors,
    emtLevels: d.emtLevels,
    patientInfoForm: d.hasForm ? { title: d.formTitle, subtitle: d.formSubtitle, fields: d.formFields } : null,
  };
}

/** Swaps two entries of a list (for the up/down buttons of an ordered list). */
const swap = <T,>(list: readonly T[], a: number, b: number): T[] => {
  const next = [...list];
  [next[a], next[b]] = [next[b]!, next[a]!];
  return next;
};

export interface AgencyFormProps {
  agency: AdminAgency | null;
  hospitals: readonly Option[];
  complaintSets: readonly string[];
  saving: boolean;
  /** The server's message when saving failed. */
  saveError: string | null;
  onSave(body: AdminCreateAgencyBody): void;
  onCancel(): void;
}

/**
 * An agency's settings — name, complaint set, case length, hospital list (ordered), monitors, EMT levels
 * and patient info form. Checked against the contract's schema before it is sent; each problem is shown
 * under its field.
 */
export function AgencyForm({ agency, hospitals, complaintSets, saving, saveError, onSave, onCancel }: AgencyFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(agency));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [toAdd, setToAdd] = useState('');
  const id = useId();
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const hospitalName = (hid: string) => hospitals.find((h) => h.id === hid)?.name ?? hid;
  const addable = hospitals.filter((h) => !draft.hospitalIds.includes(h.id));

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = AdminCreateAgencyBody.safeParse(bodyOf(draft));
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    onSave(parsed.data);
  }

  const anyError = Object.keys(errors).length > 0;

  return (
    <form
      className="admin-form"
      onSubmit={submit}
      noValidate
      aria-label={agency ? `Edit ${agency.name}` : 'New agency'}
    >
      <div className="admin-form-grid">
        <TextField
          id={`${id}-name`}
          label="Name"
          value={draft.name}
          error={errors.name}
          onChange={(value) => set({ name: value })}
        />
        <div className="field">
          <label htmlFor={`${id}-set`}>Complaint set</label>
          <select
            id={`${id}-set`}
            value={draft.complaintSet}
            onChange={(e) => set({ complaintSet: e.target.value })}
            {...invalidProps(errors, 'complaintSet', `${id}-set`)}
          >
            <option value="">Choose a set…</option>
            {complaintSets.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <FieldError errors={errors} name="complaintSet" id={`${id}-set`} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-len`}>Auto-close cases after (minutes)</label>
          <input
            id={`${id}-len`}
            type="number"
            inputMode="numeric"
            min={MAX_CASE_LENGTH_MIN}
            max={MAX_CASE_LENGTH_MAX}
            value={draft.maxCaseLength}
            onChange={(e) => set({ maxCaseLength: e.target.value })}
            {...invalidProps(errors, 'maxCaseLength', `${id}-len`)}
          />
          <FieldError errors={errors} name="maxCaseLength" id={`${id}-len`} />
        </div>
      </div>

      <fieldset className="admin-fieldset">
        <legend>Hospitals, in the order crews see them</legend>
        {draft.hospitalIds.length === 0 && (
          <p className="muted">No hospital yet: crews of this agency cannot pick a destination.</p>
        )}
        <ol className="admin-rows">
          {draft.hospitalIds.map((hid, i) => (
            <li key={hid} className="admin-row">
              <span className="admin-row-text">{hospitalName(hid)}</span>
              <button
                type="button"
                className="button button-small"
                disabled={i === 0}
                aria-label={`Move ${hospitalName(hid)} up`}
                onClick={() => set({ hospitalIds: swap(draft.hospitalIds, i, i - 1) })}
              >
                ↑
              </button>
              <button
                type="button"
                className="button button-small"
                disabled={i === draft.hospitalIds.length - 1}
                aria-label={`Move ${hospitalName(hid)} down`}
                onClick={() => set({ hospitalIds: swap(draft.hospitalIds, i, i + 1) })}
              >
                ↓
              </button>
              <button
                type="button"
                className="button button-small"
                aria-label={`Remove ${hospitalName(hid)}`}
                onClick={() => set({ hospitalIds: draft.hospitalIds.filter((x) => x !== hid) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        {addable.length > 0 && (
          <div className="admin-add">
            <label htmlFor={`${id}-add-hospital`}>Add a hospital</label>
            <select id={`${id}-add-hospital`} value={toAdd} onChange={(e) => setToAdd(e.target.value)}>
              <option value="">Choose…</option>
              {addable.map((h) => (
                <option key={h.id} value={h.id}>
                  {h.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button button-small"
              disabled={toAdd === ''}
              onClick={() => {
                set({ hospitalIds: [...draft.hospitalIds, toAdd] });
                setToAdd('');
              }}
            >
              Add
            </button>
          </div>
        )}
        <FieldError errors={errors} name="hospitalIds" id={`${id}-hospitals`} />
      </fieldset>

      <fieldset className="admin-fieldset">
        <legend>Monitors</legend>
        {draft.monitors.map((m, i) => (
          <div key={m.id ?? `new-${i}`} className="admin-row">
            <TextField
              id={`${id}-mon-${i}-name`}
              label={`Monitor ${i + 1} name`}
              value={m.name}
              error={errors[`monitors.${i}.name`]}
              onChange={(value) =>
                set({ monitors: draft.monitors.map((x, j) => (j === i ? { ...x, name: value } : x)) })
              }
            />
            <TextField
              id={`${id}-mon-${i}-type`}
              label="Type"
              placeholder="lifepak, zoll…"
              value={m.type}
              error={errors[`monitors.${i}.type`]}
              onChange={(value) =>
                set({ monitors: draft.monitors.map((x, j) => (j === i ? { ...x, type: value } : x)) })
              }
            />
            <button
              type="button"
              className="button button-small"
              aria-label={`Remove monitor ${i + 1}`}
              onClick={() => set({ monitors: draft.monitors.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button button-small"
          onClick={() => set({ monitors: [...draft.monitors, { name: '', type: '' }] })}
        >
          Add monitor
        </button>
      </fieldset>

      <fieldset className="admin-fieldset">
        <legend>EMT levels</legend>
        {draft.emtLevels.map((level, i) => (
          <div key={i} className="admin-row">
            <TextField
              id={`${id}-emt-${i}`}
              label={`Level ${i + 1}`}
              value={level.name}
              error={errors[`emtLevels.${i}.name`]}
              onChange={(value) => set({ emtLevels: draft.emtLevels.map((x, j) => (j === i ? { name: value } : x)) })}
            />
            <button
              type="button"
              className="button button-small"
              aria-label={`Remove level ${i + 1}`}
              onClick={() => set({ emtLevels: draft.emtLevels.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button button-small"
          onClick={() => set({ emtLevels: [...draft.emtLevels, { name: '' }] })}
        >
          Add level
        </button>
      </fieldset>

      <fieldset className="admin-fieldset">
        <legend>Patient info form</legend>
        <label className="check">
          <input type="checkbox" checked={draft.hasForm} onChange={(e) => set({ hasForm: e.target.checked })} />
          Crews fill in a patient info form
        </label>
        {draft.hasForm && (
          <>
            <div className="admin-form-grid">
              <TextField
                id={`${id}-ftitle`}
                label="Form title"
                value={draft.formTitle}
                error={errors['patientInfoForm.title']}
                onChange={(value) => set({ formTitle: value })}
              />
              <div className="field">
                <label htmlFor={`${id}-fsub`}>Subtitle</label>
                <input
                  id={`${id}-fsub`}
                  value={draft.formSubtitle}
                  onChange={(e) => set({ formSubtitle: e.target.value })}
                />
              </div>
            </div>
            {draft.formFields.map((f, i) => (
              <div key={i} className="admin-row">
                <TextField
                  id={`${id}-ff-${i}-name`}
                  label={`Field ${i + 1} label`}
                  value={f.name}
                  error={errors[`patientInfoForm.fields.${i}.name`]}
                  onChange={(value) =>
                    set({
                      formFields: draft.formFields.map((x, j) => (j === i ? { ...x, name: value } : x)),
                    })
                  }
                />
                <TextField
                  id={`${id}-ff-${i}-key`}
                  label="Key"
                  value={f.key}
                  error={errors[`patientInfoForm.fields.${i}.key`]}
                  onChange={(value) =>
                    set({ formFields: draft.formFields.map((x, j) => (j === i ? { ...x, key: value } : x)) })
                  }
                />
                <div className="field">
                  <label htmlFor={`${id}-ff-${i}-type`}>Type</label>
                  <select
                    id={`${id}-ff-${i}-type`}
                    value={f.type}
                    onChange={(e) =>
                      set({
                        formFields: draft.formFields.map((x, j) => (j === i ? { ...x, type: e.target.value } : x)),
                      })
                    }
                  >
                    {[...new Set([...PATIENT_INFO_FIELD_TYPES, f.type])].map((type) => (
                      <option key={type} value={type}>
                        {FIELD_TYPE_LABELS[type] ?? `${type} (not shown to crews)`}
                      </option>
                    ))}
                  </select>
                </div>
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Remove field ${i + 1}`}
                  onClick={() => set({ formFields: draft.formFields.filter((_, j) => j !== i) })}
                >
                  Remove
                </button>
              </div>
            ))}
            <button
              type="button"
              className="button button-small"
              onClick={() => set({ formFields: [...draft.formFields, { key: '', name: '', type: 'text' }] })}
            >
              Add field
            </button>
          </>
        )}
      </fieldset>

      {anyError && (
        <p className="field-error" role="alert">
          {errors[''] ?? 'Some fields need attention (marked above).'}
        </p>
      )}
      {saveError && (
        <div role="alert" className="banner banner-error">
          {saveError}
        </div>
      )}
      <div className="admin-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : agency ? 'Save changes' : 'Create agency'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
