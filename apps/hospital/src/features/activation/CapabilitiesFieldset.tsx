import { useId } from 'react';
import {
  STROKE_CENTER_LEVELS,
  STROKE_CENTER_NAMES,
  type HospitalCapabilities,
  type StrokeCenterLevel,
} from '@inbound/contract';

/**
 * The hospital form's capabilities (issue 15 item 5): what crews' destination advice ranks by for a
 * stroke, a STEMI or trauma.
 */
export function CapabilitiesFieldset({
  value,
  onChange,
}: {
  value: HospitalCapabilities;
  onChange: (value: HospitalCapabilities) => void;
}) {
  const id = useId();
  return (
    <fieldset className="admin-fieldset">
      <legend>Capabilities (crews' destination advice)</legend>
      <div className="admin-form-grid">
        <div className="field">
          <label htmlFor={`${id}-stroke`}>Stroke centre</label>
          <select
            id={`${id}-stroke`}
            value={value.strokeCenter ?? ''}
            onChange={(e) =>
              onChange({ ...value, strokeCenter: e.target.value === '' ? null : (e.target.value as StrokeCenterLevel) })
            }
          >
            <option value="">Not a stroke centre</option>
            {STROKE_CENTER_LEVELS.map((level) => (
              <option key={level} value={level}>
                {STROKE_CENTER_NAMES[level]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-trauma`}>Trauma centre</label>
          <select
            id={`${id}-trauma`}
            value={value.traumaLevel ?? ''}
            onChange={(e) => onChange({ ...value, traumaLevel: e.target.value === '' ? null : Number(e.target.value) })}
          >
            <option value="">Not a trauma centre</option>
            {[1, 2, 3, 4, 5].map((level) => (
              <option key={level} value={level}>
                Level {level}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label className="check">
        <input type="checkbox" checked={value.pci} onChange={(e) => onChange({ ...value, pci: e.target.checked })} />
        PCI around the clock (cath lab for a STEMI)
      </label>
    </fieldset>
  );
}
