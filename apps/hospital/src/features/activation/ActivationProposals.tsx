import { Link } from 'react-router';
import { useActivateTeamFor, useHospitalActivations, useTeams } from './queries';
import { proposals } from './proposal';
import { useInboundBoard } from '../board/queries';
import './activation.css';

/**
 * On the board: a priority-1 case whose complaint calls for one of the hospital's teams proposes its
 * activation as soon as it lands (proposal.ts). One tap activates; nothing is activated by itself.
 */
export function ActivationProposals({ hospitalId }: { hospitalId: string }) {
  const board = useInboundBoard(hospitalId);
  const teams = useTeams(hospitalId);
  const activations = useHospitalActivations(hospitalId);
  const activate = useActivateTeamFor(hospitalId);
  if (!board.data || !teams.data || !activations.data) return null;
  const list = proposals(board.data.open, teams.data.data, activations.data.data);
  if (list.length === 0) return null;
  return (
    <section className="activation-proposals" aria-label="Proposed team activations">
      {list.map(({ card, team }) => (
        <div key={`${card.id}-${team._id}`} className="activation-proposal" role="status">
          <span>
            <strong>Priority 1 {card.complaint?.name}</strong> · case{' '}
            <Link to={`/case/${hospitalId}/${card.id}`}>{card.caseNumber}</Link>: activate the {team.name} team?
          </span>
          <button
            type="button"
            className="button button-primary"
            disabled={activate.isPending}
            onClick={() => activate.mutate({ caseId: card.id, teamId: team._id })}
          >
            Activate {team.name} team
          </button>
        </div>
      ))}
      {activate.error && (
        <div role="alert" className="banner banner-error">
          {activate.error.message}
        </div>
      )}
    </section>
  );
}
