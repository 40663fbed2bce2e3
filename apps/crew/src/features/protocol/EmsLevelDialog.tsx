import { useState } from 'react';
import { useSession } from '../../lib/session';
import { Modal } from '../../ui/Modal';
import { emsLevelNames, withEmsLevel } from './emsLevel';

/**
 * Spec §2 "EMS Level dialog": a radio list of the team's levels, required, 'Save & Continue'. Saving keeps
 * the choice for this crew member (session `emtLevel`, by user id) and goes on to the assistant
 * (`onContinue`). Tapping outside or Escape leaves without choosing.
 */
export function EmsLevelDialog({ onContinue, onClose }: { onContinue: () => void; onClose: () => void }) {
  const team = useSession((state) => state.selectedTeam);
  const userId = useSession((state) => state.user?.id ?? null);
  const [chosen, setChosen] = useState<string | null>(null);
  const levels = emsLevelNames(team);

  const save = () => {
    if (chosen === null || userId === null) return;
    useSession.setState((state) => ({ emtLevel: withEmsLevel(state.emtLevel, userId, chosen) }));
    onContinue();
  };

  return (
    <Modal
      title="EMS Level"
      onClose={onClose}
      closeOnBackdrop
      actions={
        <button type="button" className="button button--primary" disabled={chosen === null} onClick={save}>
          Save &amp; Continue
        </button>
      }
    >
      <fieldset className="choice-list">
        <legend className="visually-hidden">EMS Level</legend>
        {levels.map((level) => (
          <label key={level} className={`choice${chosen === level ? ' choice--checked' : ''}`}>
            <input
              type="radio"
              name="ems-level"
              value={level}
              required
              checked={chosen === level}
              onChange={() => setChosen(level)}
            />
            <span className="choice__name">{level}</span>
          </label>
        ))}
      </fieldset>
    </Modal>
  );
}
