import { useId } from 'react';
import type { Team } from '@inbound/contract';

interface TeamOptionProps {
  team: Team;
  selectable: boolean;
  checked: boolean;
  onChoose: () => void;
}

/** One team: the whole row is the tap target; the radio is named by the team's name alone. */
export function TeamOption({ team, selectable, checked, onChoose }: TeamOptionProps) {
  const nameId = useId();
  const detailId = useId();
  const count = team.hospitals.length;
  return (
    <label className={`choice${selectable ? '' : ' choice--disabled'}${checked ? ' choice--checked' : ''}`}>
      <input
        type="radio"
        name="team"
        value={team.id}
        checked={checked}
        disabled={!selectable}
        aria-labelledby={nameId}
        aria-describedby={detailId}
        onChange={onChoose}
      />
      <span id={nameId} className="choice__name">
        {team.name}
      </span>
      <span id={detailId} className={selectable ? 'choice__detail' : 'choice__detail choice__detail--warning'}>
        {selectable ? `${count} ${count === 1 ? 'hospital' : 'hospitals'}` : 'No hospitals'}
      </span>
    </label>
  );
}
