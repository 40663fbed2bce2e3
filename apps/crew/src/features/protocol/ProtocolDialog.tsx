import { useState } from 'react';
import { useSession, type StoredCase } from '../../lib/session';
import { Modal } from '../../ui/Modal';
import { sendChatMessage } from '../chat/outgoing';
import { useComplaintSet } from '../complaints/queries';
import { EmsLevelDialog } from './EmsLevelDialog';
import { needsEmsLevel } from './emsLevel';
import { ProtocolAssistant } from './ProtocolAssistant';
import { caseContextKey } from './protocolModel';

/**
 * The protocol dialog of the case screen (spec §2): the EMS level first when one is needed, then the
 * assistant with the case's complaint and tags. Questions, answers and feedback go to the case chat
 * (Q:, A:, Feedback:) through the chat outbox; the conversation starts over when the case context changes.
 */
export function ProtocolDialog({ caseData, onClose }: { caseData: StoredCase; onClose: () => void }) {
  const levelNeeded = useSession((state) =>
    needsEmsLevel({ team: state.selectedTeam, userId: state.user?.id ?? null, stored: state.emtLevel }),
  );
  const [levelChosen, setLevelChosen] = useState(false);
  const set = useComplaintSet(caseData.complaintSet).data ?? null;
  const complaint = set?.complaints.find((item) => item.id === caseData.complaint) ?? null;
  const tagNames = new Map(
    complaint?.sections.flatMap((section) => section.tags.map((tag) => [tag.id, tag.name])) ?? [],
  );

  if (levelNeeded && !levelChosen) {
    return <EmsLevelDialog onContinue={() => setLevelChosen(true)} onClose={onClose} />;
  }
  return (
    <Modal title="AI Protocol Assistant" onClose={onClose} wide>
      <ProtocolAssistant
        key={caseContextKey(caseData)}
        context={{
          caseId: caseData.id,
          destinationId: caseData.destinationHospital?.id ?? null,
          complaint: complaint && { name: complaint.name, color: complaint.color },
          tags: caseData.tags.map((tag) => tagNames.get(tag.id)).filter((name): name is string => name !== undefined),
        }}
        postToChat={(text) => void sendChatMessage(text)}
      />
    </Modal>
  );
}
