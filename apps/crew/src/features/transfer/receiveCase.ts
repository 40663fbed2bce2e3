/**
 * Entry points of case transfer on the receiving side: Start's 'Tap to Receive Case' row and the
 * Message Center's dispatch messages. The transfer code loads on first use (not first-screen code).
 */
import { messages } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';

/** Opens the receive-case modal (code entry, Send Request, Cancel). */
export function openReceiveCase(): void {
  void import('./transferController')
    .then(({ openReceive }) => openReceive())
    .catch(() => showAlert(messages.noResponse, 'Case Transfer'));
}

/** Loads the case a dispatch broadcast refers to: its case number goes as the transfer code. */
export function loadDispatchedCase(caseNumber: string): void {
  void import('./transferController')
    .then(({ receiveDispatchedCase }) => receiveDispatchedCase(caseNumber))
    .catch(() => showAlert(messages.noResponse, 'Case Transfer'));
}
