import { consultMessages, type Hospital, type Team } from '@inbound/contract';
import type { StoredCase } from '../../lib/session';
import { dismissConsultInvite, useConsultRoom } from './consultRoom';
import { useConsultView } from './consultState';
import { openLiveConsult } from './openConsult';

/**
 * The hospital is in a live consult of this case and the crew is not (the ED physician started it from
 * the console, or stayed after the crew hung up): one calm line under the top bar — no sound, no modal,
 * the crew is driving or treating — with a tap to join and a "Not now" that hides it for this consult.
 */
export function ConsultInvite({
  caseData,
  team,
  destination,
}: {
  caseData: StoredCase;
  team: Team | null;
  destination: Hospital | null;
}) {
  const view = useConsultView((s) => s.view);
  const { caseId, consult, dismissedId } = useConsultRoom();
  if (view !== 'none' || caseId !== caseData.id || !consult || consult.id === dismissedId) return null;
  if (!consult.participants.some((p) => p.side === 'hospital')) return null;
  const hospital = destination?.id === consult.hospitalId ? destination.name : 'The hospital';
  return (
    <div className="consult-invite" role="status" data-testid="consult-invite">
      <p className="consult-invite__text">{consultMessages.hospitalInConsult(hospital)}</p>
      <div className="consult-invite__actions">
        <button type="button" className="button button--primary" onClick={() => openLiveConsult(caseData, team)}>
          {consultMessages.join}
        </button>
        <button type="button" className="button button--secondary" onClick={() => dismissConsultInvite(consult.id)}>
          {consultMessages.notNow}
        </button>
      </div>
    </div>
  );
}
