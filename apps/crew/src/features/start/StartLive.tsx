/**
 * The parts of Start that talk to the server, the real-time socket or the outbox, loaded after Start's
 * first paint (issue 16, item 11): they need the API client with the contract's zod schemas, the outbox
 * and tus, which Start's own code does not. Start draws the crew's name, team, truck and START CASE from
 * the stored session first; this chunk follows at once and fills in the Message Center, the closed cases
 * still sending, the notifications offer, the transfer dialogs and the case feedback question.
 */
import { useEffect, useState } from 'react';
import { useSession } from '../../lib/session';
import { CaseFeedbackModal } from '../case/CaseFeedbackModal';
import { prefetchComplaintSet } from '../complaints/queries';
import { useHandoffWatchPolling } from '../arrival/handoffWatch';
import { useUserPushTopic } from '../push/pushSubscription';
import { TransferModals } from '../transfer/TransferModals';

export { MessageCenterLive } from '../messages/MessageCenterButton';
export { startCase } from '../case/startCase';
// Below START CASE: closed cases still sending, and the offer to turn on notifications.
export { ClosedCasesStatus } from './ClosedCasesStatus';
export { NotificationsPrompt } from '../push/NotificationsPrompt';

/**
 * What Start keeps running while it is open: the user's push topic, the team's complaint list kept on the
 * device while there is coverage (a case may start without), the question to the server whether the closed
 * case's hand-over was accepted, the transfer dialogs and the case feedback question (asked once each time
 * Start opens, spec §2).
 */
export function StartBackground() {
  // Asked once each time Start opens (spec §2); closing it after a failure keeps it for next time.
  const [feedbackDismissed, setFeedbackDismissed] = useState(false);
  const team = useSession((state) => state.selectedTeam);
  const feedbackPending = useSession((state) => state.caseFeedbackPending);
  useUserPushTopic();
  useHandoffWatchPolling();
  useEffect(() => {
    if (team) void prefetchComplaintSet(team);
  }, [team]);
  return (
    <>
      <TransferModals />
      {feedbackPending && !feedbackDismissed && (
        <CaseFeedbackModal pending={feedbackPending} onClose={() => setFeedbackDismissed(true)} />
      )}
    </>
  );
}
