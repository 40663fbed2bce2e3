/**
 * The crew's hand-over after the close (issue 15): the crew usually closes the case at the door, long
 * before the ED accepts the hand-over, and the case screen — with its offload timer — is gone with the
 * close. Start shows the just-closed case's timer, then "Handoff accepted by … hh:mm", from the case
 * channel (`case:{id}`, which the crew that owns the case may still read).
 *
 * What the device keeps is `handoffWatch` in the session: the case number, the hospital, the arrival and
 * hand-over times and who accepted — no patient data, since the closed case's own data is wiped once its
 * changes are delivered (closedCaseWipe). The channel's messages and the one case read made when the
 * subscription may have missed something stay in memory; only those fields are taken from them. The
 * watch follows until the hand-over, and ends 2 h after the close (or at the next close, or logout). A
 * case closed before its create was answered is followed once the server's id replaces the placeholder
 * (lib/caseOutbox's applyPlaceholderResolution).
 */
import { useEffect } from 'react';
import { subscribeChannel } from '@inbound/client';
import type { Case, CaseChannelMessage } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { isPlaceholderId } from '../../lib/outbox';
import { realtime } from '../../lib/realtime';
import { useSession, type HandoffWatch } from '../../lib/session';
import type { ArrivalState } from './arrivalState';

/** How long after the close Start follows the hand-over. */
export const HANDOFF_WATCH_MS = 2 * 60 * 60_000;

/** The watch a close starts, with what the case screen already knew of the arrival and hand-over. */
export function startHandoffWatch(
  closed: { id: string; caseNumber: string },
  hospitalName: string,
  closedAt: string,
  known: ArrivalState | undefined,
): HandoffWatch {
  return {
    caseId: closed.id,
    caseNumber: closed.caseNumber,
    hospitalName,
    closedAt,
    arrivalAt: known?.arrival?.at ?? null,
    handoffAt: known?.handoff?.at ?? null,
    handoffByName: known?.handoff?.byName ?? null,
  };
}

export const isWatchOver = (watch: HandoffWatch, now: number): boolean =>
  now - Date.parse(watch.closedAt) >= HANDOFF_WATCH_MS;

/** Fills in what is learnt of the watched case; a field once known is never cleared. */
function learn(caseId: string, found: { arrivalAt?: string; handoffAt?: string; handoffByName?: string }) {
  const watch = useSession.getState().handoffWatch;
  if (watch?.caseId !== caseId) return;
  const next: HandoffWatch = {
    ...watch,
    arrivalAt: watch.arrivalAt ?? found.arrivalAt ?? null,
    handoffAt: watch.handoffAt ?? found.handoffAt ?? null,
    handoffByName: watch.handoffByName ?? found.handoffByName ?? null,
  };
  if (
    next.arrivalAt !== watch.arrivalAt ||
    next.handoffAt !== watch.handoffAt ||
    next.handoffByName !== watch.handoffByName
  ) {
    useSession.setState({ handoffWatch: next });
  }
}

/** A message of the closed case's channel: only its arrival and hand-over events matter here. */
export function applyHandoffMessage(caseId: string, message: CaseChannelMessage): void {
  if (message.type !== 'case.updated') return;
  const { event } = message.data;
  if (event.type === 'arrivedAtDestination') learn(caseId, { arrivalAt: event.payload.at });
  else if (event.type === 'handoffAccepted')
    learn(caseId, { handoffAt: event.payload.at, handoffByName: event.payload.byName });
}

/** The server's case, of which only the arrival and hand-over are taken. */
export function applyHandoffFromCase(caseId: string, c: Pick<Case, 'arrival' | 'handoff'>): void {
  learn(caseId, {
    arrivalAt: c.arrival?.at ?? undefined,
    handoffAt: c.handoff?.at ?? undefined,
    handoffByName: c.handoff?.byName ?? undefined,
  });
}

function readCase(caseId: string): void {
  // Offline or refused: the line stays as it was; the next subscription asks again.
  api
    .call('getCase', { params: { id: caseId } })
    .then((c) => applyHandoffFromCase(caseId, c))
    .catch(() => undefined);
}

/** Start's subscription to the just-closed case's channel, held until the hand-over or the 2 h (`over`). */
export function useHandoffWatchChannel(over: boolean): void {
  const watch = useSession((state) => state.handoffWatch);
  const caseId = watch?.caseId ?? null;
  const following = watch !== null && watch.handoffAt === null && !isPlaceholderId(watch.caseId) && !over;
  useEffect(() => {
    if (!following || caseId === null) return undefined;
    return subscribeChannel(realtime, 'case', caseId, {
      onMessage: (message) => applyHandoffMessage(caseId, message),
      onSubscribed: ({ resumed }) => {
        if (!resumed) readCase(caseId);
      },
      onUnreadable: () => readCase(caseId),
    });
  }, [caseId, following]);
}
