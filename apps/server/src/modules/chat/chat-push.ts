/**
 * The Web Push of a chat message (spec §5): to the case's crews other than its sender that have no
 * open socket. The text itself stays off the lock screen: it may carry patient details.
 */
import type { PushService } from '../push/push.service.js';
import type { ChatPush } from './chat.service.js';

export interface ChatPushDeps {
  push: Pick<PushService, 'notify'>;
  /** The crews on the case's access list (the cases module's). */
  crewsOf(caseId: string): Promise<string[]>;
  onError(error: unknown): void;
}

export function createChatPush({ push, crewsOf, onError }: ChatPushDeps): ChatPush {
  return {
    chatMessage(caseId, caseNumber, message) {
      crewsOf(caseId).then(
        (crews) =>
          push.notify(
            crews.filter((id) => id !== message.senderId),
            (userId) => [`user-${userId}`, `ems-${caseId}`],
            {
              type: 'chat.message',
              title: `Case ${caseNumber}`,
              body: `New message from ${message.senderOrganization || message.senderName}`,
              url: '/case',
              caseId,
              transferId: null,
            },
          ),
        onError,
      );
    },
  };
}
