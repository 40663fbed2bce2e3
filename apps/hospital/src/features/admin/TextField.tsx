interface Props {
  id: string;
  label: string;
  value: string;
  error?: string | undefined;
  hint?: string;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel' | 'email';
  onChange: (value: string) => void;
}

/** The administration forms' labelled input with its error (announced, tied to the input) and an optional hint. */
export function TextField({
  id,
  label,
  value,
  error,
  hint,
  type = 'text',
  autoComplete = 'off',
  placeholder,
  inputMode,
  onChange,
}: Props) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        placeholder={placeholder}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
