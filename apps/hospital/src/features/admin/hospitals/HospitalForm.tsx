import { useId, useState, type FormEvent } from 'react';
import {
  AdminCreateHospitalBody,
  HOSPITAL_FEATURES,
  NO_CAPABILITIES,
  type AdminHospital,
  type HospitalCapabilities,
  type HospitalFeatureName,
} from '@inbound/contract';
import { fieldErrors, type FieldErrors } from '../agencies/formErrors';
import { TextField } from '../TextField';
import { CapabilitiesFieldset } from '../../activation/CapabilitiesFieldset';

/** What each §3 feature does, in words an administrator can decide on. */
export const FEATURE_LABELS: Record<HospitalFeatureName, string> = {
  liveConsult: 'Live video consult with the crew',
  emsFeedback: 'Crews can rate and comment on the handover',
  caseRequiresPtNameAndDOB: 'Patient name and date of birth required before closing a case',
  showAiProtocolFeedback: 'Ask crews for feedback on protocol assistant answers',
  aiProtocolHideSummary: 'Hide the protocol assistant summary',
  allowsToRecord: 'Record voice calls with crews (both sides, kept with the case)',
};

interface Draft {
  name: string;
  nonTwiage: boolean;
  phones: { name: string; phoneNumber: string }[];
  features: Record<string, boolean>;
  latitude: string;
  longitude: string;
  capabilities: HospitalCapabilities;
}

function draftOf(h: AdminHospital | null): Draft {
  return {
    name: h?.name ?? '',
    nonTwiage: h?.nonTwiage ?? false,
    phones: h?.edPhoneNumbers.map((p) => ({ ...p })) ?? [{ name: 'ED Charge Nurse', phoneNumber: '' }],
    features: Object.fromEntries(h?.supportedFeatures.map((f) => [f.name, f.enabled]) ?? []),
    latitude: h?.location ? String(h.location.latitude) : '',
    longitude: h?.location ? String(h.location.longitude) : '',
    capabilities: h?.capabilities ?? NO_CAPABILITIES,
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
    capabilities: d.capabilities,
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
        <TextField
          id={`${id}-name`}
          label="Name"
          value={draft.name}
          error={errors.name}
          onChange={(value) => set({ name: value })}
        />
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
            <TextField
              id={`${id}-ph-${i}-name`}
              label={`Phone ${i + 1} name`}
              value={p.name}
              error={errors[`edPhoneNumbers.${i}.name`]}
              onChange={(value) => setPhone(i, { name: value })}
            />
            <TextField
              id={`${id}-ph-${i}-number`}
              label={`Phone ${i + 1} number`}
              type="tel"
              placeholder="+1-555-0100"
              value={p.phoneNumber}
              error={errors[`edPhoneNumbers.${i}.phoneNumber`]}
              onChange={(value) => setPhone(i, { phoneNumber: value })}
            />
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
          <TextField
            id={`${id}-lat`}
            label="Latitude"
            inputMode="decimal"
            placeholder="41.4993"
            value={draft.latitude}
            error={errors['location.latitude']}
            onChange={(value) => set({ latitude: value })}
          />
          <TextField
            id={`${id}-lon`}
            label="Longitude"
            inputMode="decimal"
            placeholder="-81.6944"
            value={draft.longitude}
            error={errors['location.longitude']}
            onChange={(value) => set({ longitude: value })}
          />
        </div>
        <p className="muted small">Leave both empty when the location is unknown.</p>
      </fieldset>

      <CapabilitiesFieldset value={draft.capabilities} onChange={(capabilities) => set({ capabilities })} />

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
