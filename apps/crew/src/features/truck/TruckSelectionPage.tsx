import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { messages, type Truck } from '@inbound/contract';
import { errorMessage } from '../../lib/errors';
import { flushSessionWrites, useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { Banner } from '../../ui/Banner';
import { Spinner } from '../../ui/Spinner';
import { TopBar } from '../../ui/TopBar';
import { prefetchComplaintSet } from '../complaints/queries';
import { useTrucks } from './queries';
import { TruckLoadState, truckLoadState } from './truckLoadState';
import { TruckOption } from './TruckOption';

/** `/truck-selection` ('Choose your truck'): the chosen team's trucks; Next goes to start. */
export function TruckSelectionPage() {
  const navigate = useNavigate();
  const team = useSession((state) => state.selectedTeam);
  const selectedTruck = useSession((state) => state.selectedTruck);
  const query = useTrucks(team?.id ?? null);
  const loadState = truckLoadState(query);
  const [choiceId, setChoiceId] = useState<string | null>(selectedTruck?.id ?? null);
  const trucks: Truck[] = query.data ?? [];
  const choice = trucks.find((truck) => truck.id === choiceId) ?? null;

  const next = () => {
    if (!choice) return;
    useSession.setState({ selectedTruck: choice });
    // The complaint list is fetched now, while there is coverage: a case may start without any.
    if (team) void prefetchComplaintSet(team);
    // On to start once the choice is on the device, so a reload there keeps it.
    void flushSessionWrites().then(() => navigate(paths.start));
  };

  return (
    <div className="page">
      <TopBar
        title={messages.chooseTruck}
        start={
          <Link className="top-bar__button" to={paths.teamSelection}>
            Back
          </Link>
        }
      />
      <div className="page__content" data-load-state={loadState}>
        {team && <p className="page__context">Team: {team.name}</p>}
        {loadState === TruckLoadState.Loading && <Spinner label="Loading trucks" />}
        {loadState === TruckLoadState.LoadingFailed && (
          <div className="stack">
            <Banner kind="error" message={errorMessage(query.error)} />
            <button
              type="button"
              className="button button--secondary button--block"
              onClick={() => void query.refetch()}
            >
              Retry
            </button>
          </div>
        )}
        {loadState === TruckLoadState.LoadingSucceeded && (
          <fieldset className="choice-list">
            <legend className="visually-hidden">Trucks</legend>
            {trucks.length === 0 && (
              <p className="empty-state">This team has no trucks yet. Contact your administrator.</p>
            )}
            {trucks.map((truck) => (
              <TruckOption
                key={truck.id}
                truck={truck}
                checked={truck.id === choiceId}
                onChoose={() => setChoiceId(truck.id)}
              />
            ))}
          </fieldset>
        )}
        <button
          type="button"
          className="button button--primary button--block"
          disabled={choice === null}
          onClick={next}
        >
          Next
        </button>
      </div>
    </div>
  );
}
