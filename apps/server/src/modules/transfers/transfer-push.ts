/** The Web Push of a transfer request (spec §4): the sending crew hears of it even with no open socket. */
import type { CaseTransfer } from '@inbound/contract';
import type { PushService } from '../push/push.service.js';

export function createTransferPush(push: Pick<PushService, 'notify'>) {
  return {
    transferRequested(transfer: CaseTransfer): void {
      push.notify([transfer.createdBy], (userId) => [`user-${userId}`, `ems-${transfer.caseId}`], {
        type: 'CASE_TRANSFER_UPDATED',
        title: 'Case transfer',
        body: transfer.messageForSender ?? '',
        url: '/case',
        caseId: transfer.caseId,
        transferId: transfer._id,
      });
    },
  };
}
