/**
 * The case's live consult room as the server last told this device (in memory only: nothing of it is
 * kept on the device, decision 0007): from `consult.updated` on the case's channel (caseChannel.ts) and,
 * whenever that channel may have missed one, from `GET /notification/twiage-cases/{id}/room`. The case
 * screen uses it to tell the crew the hospital is in a consult the crew is not in (ConsultInvite).
 */
import { create } from 'zustand';
import type { Consult } from '@inbound/contract';
import { api } from '../../lib/apiClient';

interface ConsultRoomState {
  caseId: string | null;
  /** The live consult of the case; null: none runs. */
  consult: Consult | null;
  /** The consult the crew said "Not now" to: not offered again (a new one is). */
  dismissedId: string | null;
}

export const useConsultRoom = create<ConsultRoomState>()(() => ({ caseId: null, consult: null, dismissedId: null }));

export function applyConsultRoom(caseId: string, consult: Consult | null): void {
  const live = consult?.state === 'live' ? consult : null;
  useConsultRoom.setState((state) => ({
    caseId,
    consult: live,
    dismissedId: state.caseId === caseId ? state.dismissedId : null,
  }));
}

/** Reads the room again; offline or refused, what is shown stays until the next subscription. */
export function readConsultRoom(caseId: string): void {
  api
    .call('consultRoom', { params: { id: caseId } })
    .then(({ consult }) => applyConsultRoom(caseId, consult))
    .catch(() => undefined);
}

export function dismissConsultInvite(consultId: string): void {
  useConsultRoom.setState({ dismissedId: consultId });
}
