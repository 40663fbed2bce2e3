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

/** Age and gender (spec §2, §4): tapping the chosen gender clears it; age through the age modal. */
export function AgeGender({ caseData }: { caseData: StoredCase }) {
  const [editingAge, setEditingAge] = useState(false);
  const ageText = caseData.age === null ? 'Age' : `Age ${caseData.age} ${AGE_PERIOD_LABELS[caseData.agePeriod]}`;
  return (
    <div className="age-gender" role="group" aria-label="Age and gender">
      <button
        type="button"
        className={caseData.age === null ? 'chip' : 'chip chip--on'}
        aria-haspopup="dialog"
        onClick={() => setEditingAge(true)}
      >
        {ageText}
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
      {editingAge && <AgeModal caseData={caseData} onClose={() => setEditingAge(false)} />}
    </div>
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
