/**
 * The crew asks for the live consult (the Media tab's Live Consult, or Join when the hospital is in
 * one): shown again when it runs, else started after spec §4/§8's guards, each refused with its text.
 */
import { FEATURE, callMessages, consultMessages, messages, type Team } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import type { StoredCase } from '../../lib/session';
import { isCallActive } from '../call/callState';
import { destinationOf, hospitalHasFeature } from '../case/caseModel';
import { useTransfer } from '../transfer/transferController';
import { isConsultActive, maximizeConsult, startConsult } from './consultState';

export function openLiveConsult(caseData: StoredCase, team: Team | null): void {
  const destination = destinationOf(caseData, team);
  if (isConsultActive()) maximizeConsult();
  else if (isCallActive()) showAlert(callMessages.endCallToStartConsult, messages.warningTitle);
  else if (!destination) showAlert(messages.selectHospitalForLiveConsult, messages.warningTitle);
  else if (!hospitalHasFeature(destination, FEATURE.liveConsult)) {
    showAlert(messages.liveConsultNotSupported(destination.name), messages.warningTitle);
  } else if (caseData.id.startsWith('placeholder-')) showAlert(callMessages.caseNotOpen, messages.warningTitle);
  else if (useTransfer.getState().transfer !== null)
    showAlert(consultMessages.transferInProgress, messages.warningTitle);
  else startConsult(caseData.id);
}
