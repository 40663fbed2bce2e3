/**
 * The crew app's one subscription to a case's channel (`case:{id}`), held while the case screen is open.
 * Every message is parsed by the shared realtime client with the contract's schema (subscribeChannel)
 * and applied to what the screen holds — no request follows it:
 *
 * - `case.updated` `acknowledged` → the "Seen by … ED" line; `hospital` (destination changed) clears it
 *   when the new destination is not the hospital that saw the case;
 * - `case.updated` of a media kind (with its upload) and `media.converted` → the Media tab's list;
 * - `chat.message`, `chat.receipt` → the chat;
 * - `consult.updated` → the case's live consult room (the crew is told when the hospital is in one).
 *
 * What it holds is read again only when something may have been missed: a subscription that did not
 * resume without a hole (the first one, or a catch-up past the gateway's retention) or a message this
 * app cannot read (a newer server's).
 */
import { useEffect } from 'react';
import { isMediaCaseEvent, type CaseChannelMessage, type CaseUpdated } from '@inbound/contract';
import { subscribeChannel } from '@inbound/client';
import { isPlaceholderId } from '../../lib/outbox';
import { queryClient } from '../../lib/queryClient';
import { realtime } from '../../lib/realtime';
import { applyChatMessage, applyChatReceipt } from '../chat/chatQueries';
import { chatKeys } from '../chat/outgoing';
import { applyMediaUpload, caseMediaKey } from '../media/useCaseMedia';
import { acknowledgementKey, readAcknowledgement, type Acknowledgement } from './EdAcknowledgement';
import { applyArrivalEvent } from '../arrival/arrivalState';
import { applyTeamEvent, forgetActivations, isTeamEvent, readActivations } from '../activation/TeamsOnTheWay';
import { applyConsultRoom, readConsultRoom } from '../consult/consultRoom';

export function useCaseChannel(caseId: string | null): void {
  useEffect(() => {
    if (caseId === null || isPlaceholderId(caseId)) return undefined;
    return subscribeChannel(realtime, 'case', caseId, {
      onMessage: (message) => applyCaseMessage(caseId, message),
      onSubscribed: ({ resumed }) => {
        if (!resumed) readCaseAgain(caseId);
        // A resumed channel after a reload: the screen has not read the acknowledgement yet.
        else if (queryClient.getQueryState(acknowledgementKey(caseId))?.data === undefined) {
          readAck(caseId);
          readActivations(queryClient, caseId);
          readConsultRoom(caseId);
        }
      },
      onUnreadable: () => readCaseAgain(caseId),
    });
  }, [caseId]);
}

export function applyCaseMessage(caseId: string, message: CaseChannelMessage): void {
  switch (message.type) {
    case 'case.updated':
      return applyCaseUpdated(caseId, message.data);
    case 'media.converted':
      return applyMediaUpload(caseId, message.data.upload);
    case 'chat.message':
      return applyChatMessage(caseId, message.data);
    case 'chat.receipt':
      return applyChatReceipt(caseId, message.data);
    case 'consult.updated':
      return applyConsultRoom(caseId, message.data.consult);
  }
}

function applyCaseUpdated(caseId: string, { event, upload }: CaseUpdated): void {
  if (isMediaCaseEvent(event)) {
    if (upload) applyMediaUpload(caseId, upload);
    else void queryClient.invalidateQueries({ queryKey: caseMediaKey(caseId) });
    return;
  }
  if (applyArrivalEvent(caseId, event)) return;
  if (isTeamEvent(event)) return applyTeamEvent(queryClient, caseId, event);
  const key = acknowledgementKey(caseId);
  if (event.type === 'acknowledged') {
    const { hospitalId, hospitalName } = event.payload;
    const seen: Acknowledgement = { hospitalId, hospital: hospitalName, at: event.createdAt };
    queryClient.setQueryData<Acknowledgement | null>(key, seen);
    return;
  }
  if (event.type === 'hospital') {
    const held = queryClient.getQueryData<Acknowledgement | null>(key);
    if (held && held.hospitalId !== event.payload.destinationHospital) queryClient.setQueryData(key, null);
    else if (!held) readAck(caseId);
    // The teams shown are the destination's: a new one's are not the old one's (gone at once), and a
    // destination the case returns to may have a team still activated, which no event announces again
    // — so the server says which (the activations at the current destination).
    forgetActivations(queryClient, caseId);
    readActivations(queryClient, caseId);
  }
}

function readAck(caseId: string): void {
  // Offline or refused: the line stays as it was; the next subscription asks again.
  readAcknowledgement(queryClient, caseId).catch(() => undefined);
}

function readCaseAgain(caseId: string): void {
  readAck(caseId);
  void queryClient.invalidateQueries({ queryKey: caseMediaKey(caseId) });
  void queryClient.invalidateQueries({ queryKey: chatKeys.messages(caseId) });
  readActivations(queryClient, caseId);
  readConsultRoom(caseId);
}
