/**
 * START CASE (spec §2, §4): the case exists on this device at once — a placeholder
 * (`placeholder-{timestamp}`, caseNumber '...') — and the crew is on /case straight away, with or
 * without coverage. The create goes through the outbox; its answer replaces the placeholder's id,
 * caseNumber, channelId, ownedBy and createdAt (lib/caseOutbox). The token has been checked by the caller.
 */
import { caseMutations } from '../../lib/outbox';
import { useSession } from '../../lib/session';
import { prefetchComplaintSet } from '../complaints/queries';
import { newPlaceholderCase } from './caseModel';
import { enqueueInOrder } from './mutations';

export type StartCaseResult = 'started' | 'notReady';

export async function startCase(now: number = Date.now()): Promise<StartCaseResult> {
  const { selectedTeam: team, selectedTruck: truck } = useSession.getState();
  if (!team || !truck) return 'notReady';
  const placeholder = newPlaceholderCase(team, truck, now);
  // The guard moves to /case as soon as caseActive is set.
  useSession.setState({ case: placeholder, caseActive: true });
  void prefetchComplaintSet(team);
  await enqueueInOrder([
    caseMutations.createCase(placeholder.id, { emsAgency: team.id, truck: truck.id, beganAt: placeholder.createdAt }),
  ]);
  return 'started';
}
