/**
 * The case-transfer state machine of spec §4, as data: which side may make each change from which
 * state, what the change writes, and the texts each side is shown (§4, §8 word for word).
 *
 *   status open ── request: null ─► open ─► accepted ─► received ─► (acknowledge) status done, request done
 *                                    │ └─► denied ─► (a new request may come)
 *                                    └─► cancelled (by the requester) ─► (a new request may come)
 *   status open ─► cancelled (sender; only with no request or a denied/cancelled/done one)
 *   status open ─► expired (its lifetime ran out; see docs/decisions)
 */
import { transferMessages as t, type TransferRequestStatus, type TransferStatus } from '@inbound/contract';
import type { TransferRow } from './transfers.repository.js';

export type TransferSide = 'sender' | 'receiver';

/** Request states in which the sender may cancel the whole transfer (§4). */
const SENDER_MAY_CANCEL: (TransferRequestStatus | null)[] = [null, 'denied', 'done', 'cancelled'];

export const isLive = (status: TransferStatus): boolean => status === 'open';

export function senderMayCancel(row: Pick<TransferRow, 'status' | 'request_status'>): boolean {
  return row.status === 'open' && SENDER_MAY_CANCEL.includes(row.request_status);
}

/** A request may be made while the transfer is open and no other request is pending or under way. */
export function acceptsRequests(row: Pick<TransferRow, 'status' | 'request_status'>): boolean {
  return row.status === 'open' && (row.request_status === null || ['denied', 'cancelled'].includes(row.request_status));
}

export function messagesFor(row: Pick<TransferRow, 'status' | 'request_status' | 'cancel_reason'>): {
  messageForSender: string | null;
  messageForReceiver: string | null;
} {
  const both = (text: string) => ({ messageForSender: text, messageForReceiver: text });
  switch (row.status) {
    case 'done':
      return both(t.done);
    case 'expired':
      return both(t.expired);
    case 'cancelled':
      return both(row.cancel_reason === 'timeout' ? t.timedOut : t.cancelled);
    case 'open':
      break;
  }
  switch (row.request_status) {
    case null:
    case 'denied':
      return {
        messageForSender: t.giveCode,
        messageForReceiver: row.request_status === 'denied' ? t.requestDeclined : null,
      };
    case 'open':
      return { messageForSender: t.requestOpen, messageForReceiver: t.waitingForSender };
    case 'accepted':
      return { messageForSender: t.requestAccepted, messageForReceiver: t.loadingCase };
    case 'received':
      return { messageForSender: t.requestReceived, messageForReceiver: t.loadingCase };
    case 'cancelled':
      return { messageForSender: t.requestCancelledForSender, messageForReceiver: t.requestCancelledForReceiver };
    case 'done':
      return both(t.done);
  }
}

/** Why a change is refused in the transfer's current state: the §8 text of a finished transfer, or ours. */
export function refusal(row: Pick<TransferRow, 'status' | 'cancel_reason'>): string {
  switch (row.status) {
    case 'done':
      return t.done;
    case 'expired':
      return t.expired;
    case 'cancelled':
      return row.cancel_reason === 'timeout' ? t.timedOut : t.cancelled;
    case 'open':
      return t.notPossibleNow;
  }
}
