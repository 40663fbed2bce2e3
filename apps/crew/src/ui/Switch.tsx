import { useId } from 'react';

interface SwitchProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: string;
}

/** An on/off switch: a real checkbox with role="switch", named by its label; the whole row is the target. */
export function Switch({ label, checked, onChange, description }: SwitchProps) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <label className="switch">
      <span className="switch__text">
        <span id={labelId} className="switch__label">
          {label}
        </span>
        {description && (
          <span id={descriptionId} className="switch__description">
            {description}
          </span>
        )}
      </span>
      <input
        type="checkbox"
        role="switch"
        className="switch__input"
        aria-labelledby={labelId}
        aria-describedby={description ? descriptionId : undefined}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="switch__track" aria-hidden="true" />
    </label>
  );
}
