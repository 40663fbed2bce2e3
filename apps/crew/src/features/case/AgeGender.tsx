import { useId, useState } from 'react';
import { AGE_MAX_BY_PERIOD, messages, type AgePeriodCode, type Gender } from '@inbound/contract';
import type { StoredCase } from '../../lib/session';
import { Modal } from '../../ui/Modal';
import { AGE_PERIOD_LABELS, validateAge } from './caseModel';
import { clearAge, setAge, tapGender } from './mutations';

const GENDERS: { value: Gender; label: string }[] = [
  { value: 'M', label: 'Male' },
  { value: 'F', label: 'Female' },
];

/**
 * Age and gender in one row (spec §2, §4; issue 16, item 2): the age is typed straight into a number
 * field (the numeric keypad opens on the tap) and saved when the crew moves on or presses Enter; the
 * unit button opens the age dialog (Years, Months or Weeks, Clear). Tapping the chosen gender clears it.
 */
export function AgeGender({ caseData }: { caseData: StoredCase }) {
  const [editingAge, setEditingAge] = useState(false);
  const unit = AGE_PERIOD_LABELS[caseData.agePeriod];
  return (
    <div className="age-gender-block">
      <div className="age-gender" role="group" aria-label="Age and gender">
        <AgeField caseData={caseData} />
        <button
          type="button"
          className="chip chip--unit"
          aria-haspopup="dialog"
          aria-label={`Age unit ${unit}`}
          onClick={() => setEditingAge(true)}
        >
          {unit}
        </button>
        {GENDERS.map((gender) => (
          <button
            key={gender.value}
            type="button"
            className={caseData.gender === gender.value ? 'chip chip--on' : 'chip'}
            aria-pressed={caseData.gender === gender.value}
            onClick={() => void tapGender(gender.value)}
          >
            {gender.label}
          </button>
        ))}
      </div>
      {editingAge && <AgeModal caseData={caseData} onClose={() => setEditingAge(false)} />}
    </div>
  );
}

/** The age typed in place: saved on Enter or when focus leaves; a value out of range says the range. */
function AgeField({ caseData }: { caseData: StoredCase }) {
  const saved = caseData.age === null ? '' : String(caseData.age);
  // What the crew is typing (null when not typing): a change from elsewhere — the dialog, a transfer, a
  // reload — shows unless the crew is in the middle of typing.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();
  const text = draft ?? saved;

  const commit = () => {
    const result = validateAge(text, caseData.agePeriod);
    if (result.kind === 'invalid') {
      setError(result.message);
      return;
    }
    setDraft(null);
    setError(null);
    if (result.kind === 'valid' && result.age !== caseData.age) void setAge(result.age, caseData.agePeriod);
  };

  return (
    <>
      <input
        className={caseData.age === null ? 'age-field' : 'age-field age-field--set'}
        inputMode="numeric"
        pattern="[0-9]*"
        enterKeyHint="done"
        autoComplete="off"
        placeholder="Age"
        aria-label={`Age in ${AGE_PERIOD_LABELS[caseData.agePeriod].toLowerCase()}`}
        aria-invalid={error !== null}
        aria-describedby={error ? hintId : undefined}
        value={text}
        onChange={(event) => {
          setDraft(event.target.value.replace(/[^0-9]/g, ''));
          setError(null);
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
        }}
      />
      {error && (
        <p id={hintId} className="age-gender__error" role="alert">
          {messages.ageHint(AGE_MAX_BY_PERIOD[caseData.agePeriod])}
        </p>
      )}
    </>
  );
}

const PERIODS: AgePeriodCode[] = [3, 2, 1];

/** Spec §4 / §5: Years, Months or Weeks; an integer from 1 to 120 / 24 / 24; Clear resets; empty does nothing. */
function AgeModal({ caseData, onClose }: { caseData: StoredCase; onClose: () => void }) {
  const [period, setPeriod] = useState<AgePeriodCode>(caseData.agePeriod);
  const [text, setText] = useState(caseData.age === null ? '' : String(caseData.age));
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();
  const max = AGE_MAX_BY_PERIOD[period];

  const save = () => {
    const result = validateAge(text, period);
    if (result.kind === 'empty') {
      onClose();
      return;
    }
    if (result.kind === 'invalid') {
      setError(result.message);
      return;
    }
    if (result.age !== caseData.age || period !== caseData.agePeriod) void setAge(result.age, period);
    onClose();
  };

  return (
    <Modal
      title="Age"
      onClose={onClose}
      actions={
        <>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              void clearAge();
              onClose();
            }}
          >
            Clear
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" onClick={save}>
            Save
          </button>
        </>
      }
    >
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <div className="segmented" role="group" aria-label="Unit">
          {PERIODS.map((code) => (
            <button
              key={code}
              type="button"
              className={period === code ? 'segmented__item segmented__item--on' : 'segmented__item'}
              aria-pressed={period === code}
              onClick={() => {
                setPeriod(code);
                setError(null);
              }}
            >
              {AGE_PERIOD_LABELS[code]}
            </button>
          ))}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            Age in {AGE_PERIOD_LABELS[period].toLowerCase()}
          </label>
          <input
            id={inputId}
            className="field__input age-input"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            value={text}
            aria-describedby={hintId}
            aria-invalid={error !== null}
            onChange={(event) => {
              setText(event.target.value);
              setError(null);
            }}
            data-autofocus
          />
          <p id={hintId} className={error ? 'field__error' : 'field__hint'} role={error ? 'alert' : undefined}>
            {messages.ageHint(max)}
          </p>
        </div>
      </form>
    </Modal>
  );
}
