/**
 * Entry points of case transfer on the receiving side (the real-time issue): the Start screen's
 * 'Tap to Receive Case' row and the Message Center's dispatch messages call these. Until the transfer
 * issue lands they say so instead of failing silently.
 */
import { showAlert } from '../../lib/alerts';

const notYet = 'Receiving a case is not available in this version.';

/** Opens the receive-case modal (code entry, Send Request, Cancel). */
export function openReceiveCase(): void {
  showAlert(notYet, 'Case Transfer');
}

/** Loads the case a dispatch broadcast refers to (POST /v4/case-transfers/{code}/request). */
export function loadDispatchedCase(_caseNumber: string): void {
  showAlert(notYet, 'Case Transfer');
}
