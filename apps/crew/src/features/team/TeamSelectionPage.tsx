import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { messages, type Team } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { flushSessionWrites, useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { TopBar } from '../../ui/TopBar';
import { ShiftSettings } from '../shift/ShiftSettings';
import { TeamOption } from './TeamOption';

/** `/team-selection` ('Choose your team'), with the shift settings below the list (spec §2). */
export function TeamSelectionPage() {
  const navigate = useNavigate();
  const teams = useSession((state) => state.teams);
  const selectedTeam = useSession((state) => state.selectedTeam);
  const [choiceId, setChoiceId] = useState<string | null>(selectedTeam?.id ?? null);
  const choice = teams.find((team) => team.id === choiceId && isSelectable(team)) ?? null;
  // Back only returns to a choice already made: once the crew picks another team, they must go on.
  const showBack = selectedTeam !== null && choiceId === selectedTeam.id;

  const next = () => {
    if (!choice) {
      showAlert(messages.mustSelectTeam);
      return;
    }
    const { selectedTeam: previous, selectedTruck } = useSession.getState();
    useSession.setState({ selectedTeam: choice, selectedTruck: previous?.id === choice.id ? selectedTruck : null });
    // On to the next step once the choice is on the device, so a reload there keeps it.
    void flushSessionWrites().then(() => navigate(paths.truckSelection));
  };

  return (
    <div className="page">
      <TopBar
        title={messages.chooseTeam}
        start={
          showBack && (
            <Link className="top-bar__button" to={paths.start}>
              Back
            </Link>
          )
        }
      />
      <div className="page__content">
        <fieldset className="choice-list">
          <legend className="visually-hidden">Teams</legend>
          {teams.length === 0 && (
            <p className="empty-state">You are not a member of any team yet. Contact your administrator.</p>
          )}
          {teams.map((team) => (
            <TeamOption
              key={team.id}
              team={team}
              selectable={isSelectable(team)}
              checked={team.id === choiceId}
              onChoose={() => setChoiceId(team.id)}
            />
          ))}
        </fieldset>
        <button
          type="button"
          className="button button--primary button--block"
          aria-disabled={choice === null}
          onClick={next}
        >
          Next
        </button>
        <ShiftSettings />
      </div>
    </div>
  );
}

/** A team with no hospitals cannot take a case anywhere, so it cannot be chosen (spec §5). */
export function isSelectable(team: Team): boolean {
  return team.hospitals.length > 0;
}
