import { useId, useState, type FormEvent } from 'react';
import {
  AdminCreateHospitalBody,
  HOSPITAL_FEATURES,
  type AdminHospital,
  type HospitalFeatureName,
} from '@inbound/contract';
import { FieldError, fieldErrors, invalidProps, type FieldErrors } from '../agencies/formErrors';

/** What each §3 feature does, in words an administrator can decide on. */
export const FEATURE_LABELS: Record<HospitalFeatureName, string> = {
  liveConsult: 'Live video consult with the crew',
  emsFeedback: 'Crews can rate and comment on the handover',
  caseRequiresPtNameAndDOB: 'Patient name and date of birth required before closing a case',
  showAiProtocolFeedback: 'Ask crews for feedback on protocol assistant answers',
  aiProtocolHideSummary: 'Hide the protocol assistant summary',
};

interface Draft {
  name: string;
  nonTwiage: boolean;
  phones: { name: string; phoneNumber: string }[];
  features: Record<string, boolean>;
  latitude: string;
  longitude: string;
}

function draftOf(h: AdminHospital | null): Draft {
  return {
    name: h?.name ?? '',
    nonTwiage: h?.nonTwiage ?? false,
    phones: h?.edPhoneNumbers.map((p) => ({ ...p })) ?? [{ name: 'ED Charge Nurse', phoneNumber: '' }],
    features: Object.fromEntries(h?.supportedFeatures.map((f) => [f.name, f.enabled]) ?? []),
    latitude: h?.location ? String(h.location.latitude) : '',
    longitude: h?.location ? String(h.location.longitude) : '',
  };
}

const coordinate = (text: string) => (text.trim() === '' ? undefined : Number(text));

function bodyOf(d: Draft): unknown {
  const noLocation = d.latitude.trim() === '' && d.longitude.trim() === '';
  return {
    name: d.name,
    nonTwiage: d.nonTwiage,
    edPhoneNumbers: d.phones,
    supportedFeatures: HOSPITAL_FEATURES.map((name) => ({ name, enabled: d.features[name] ?? false })),
    location: noLocation ? null : { latitude: coordinate(d.latitude), longitude: coordinate(d.longitude) },
  };
}

export interface HospitalFormProps {
  hospital: AdminHospital | null;
  saving: boolean;
  saveError: string | null;
  onSave(body: AdminCreateHospitalBody): void;
  onCancel(): void;
}

/** A hospital's settings: name, platform, ED phone numbers, §3 features and location (for ETA). */
export function HospitalForm({ hospital, saving, saveError, onSave, onCancel }: HospitalFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(hospital));
  const [errors, setErrors] = useState<FieldErrors>({});
  const id = useId();
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setPhone = (i: number, patch: Partial<Draft['phones'][number]>) =>
    set({ phones: draft.phones.map((p, j) => (j === i ? { ...p, ...patch } : p)) });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = AdminCreateHospitalBody.safeParse(bodyOf(draft));
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    onSave(parsed.data);
  }

  return (
    <form
      className="admin-form"
      onSubmit={submit}
      noValidate
      aria-label={hospital ? `Edit ${hospital.name}` : 'New hospital'}
    >
      <div className="admin-form-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            {...invalidProps(errors, 'name', `${id}-name`)}
          />
          <FieldError errors={errors} name="name" id={`${id}-name`} />
        </div>
        <div className="admin-check-field">
          <span className="field-label">Platform</span>
          <label className="check">
            <input type="checkbox" checked={draft.nonTwiage} onChange={(e) => set({ nonTwiage: e.target.checked })} />
            Not on the platform: crews can phone the ED, no case data is sent
          </label>
        </div>
      </div>

      <fieldset className="admin-fieldset">
        <legend>ED phone numbers</legend>
        {draft.phones.map((p, i) => (
          <div key={i} className="admin-row">
            <div className="field">
              <label htmlFor={`${id}-ph-${i}-name`}>Phone {i + 1} name</label>
              <input
                id={`${id}-ph-${i}-name`}
                value={p.name}
                onChange={(e) => setPhone(i, { name: e.target.value })}
                {...invalidProps(errors, `edPhoneNumbers.${i}.name`, `${id}-ph-${i}-name`)}
              />
              <FieldError errors={errors} name={`edPhoneNumbers.${i}.name`} id={`${id}-ph-${i}-name`} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-ph-${i}-number`}>Phone {i + 1} number</label>
              <input
                id={`${id}-ph-${i}-number`}
                type="tel"
                value={p.phoneNumber}
                placeholder="+1-555-0100"
                onChange={(e) => setPhone(i, { phoneNumber: e.target.value })}
                {...invalidProps(errors, `edPhoneNumbers.${i}.phoneNumber`, `${id}-ph-${i}-number`)}
              />
              <FieldError errors={errors} name={`edPhoneNumbers.${i}.phoneNumber`} id={`${id}-ph-${i}-number`} />
            </div>
            <button
              type="button"
              className="button button-small"
              aria-label={`Remove phone ${i + 1}`}
              onClick={() => set({ phones: draft.phones.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button button-small"
          onClick={() => set({ phones: [...draft.phones, { name: '', phoneNumber: '' }] })}
        >
          Add phone number
        </button>
      </fieldset>

      <fieldset className="admin-fieldset">
        <legend>Features</legend>
        {HOSPITAL_FEATURES.map((name) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              checked={draft.features[name] ?? false}
              onChange={(e) => set({ features: { ...draft.features, [name]: e.target.checked } })}
            />
            {FEATURE_LABELS[name]}
          </label>
        ))}
      </fieldset>

      <fieldset className="admin-fieldset">
        <legend>Location (for distance and ETA)</legend>
        <div className="admin-form-grid">
          <div className="field">
            <label htmlFor={`${id}-lat`}>Latitude</label>
            <input
              id={`${id}-lat`}
              inputMode="decimal"
              value={draft.latitude}
              placeholder="41.4993"
              onChange={(e) => set({ latitude: e.target.value })}
              {...invalidProps(errors, 'location.latitude', `${id}-lat`)}
            />
            <FieldError errors={errors} name="location.latitude" id={`${id}-lat`} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lon`}>Longitude</label>
            <input
              id={`${id}-lon`}
              inputMode="decimal"
              value={draft.longitude}
              placeholder="-81.6944"
              onChange={(e) => set({ longitude: e.target.value })}
              {...invalidProps(errors, 'location.longitude', `${id}-lon`)}
            />
            <FieldError errors={errors} name="location.longitude" id={`${id}-lon`} />
          </div>
        </div>
        <p className="muted small">Leave both empty when the location is unknown.</p>
      </fieldset>

      {Object.keys(errors).length > 0 && (
        <p className="field-error" role="alert">
          Some fields need attention (marked above).
        </p>
      )}
      {saveError && (
        <div role="alert" className="banner banner-error">
          {saveError}
        </div>
      )}
      <div className="admin-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : hospital ? 'Save changes' : 'Create hospital'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
