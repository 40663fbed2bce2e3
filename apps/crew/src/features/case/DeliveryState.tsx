/**
 * Whether the hospital has the case (issue 16, item 6), on the case screen's status line, one step at a time:
 * - "Sent to {hospital} 13:05 ✓" once every change of the case has reached the server with a destination;
 * - "Seen by {hospital} ED 13:07 ✓✓" once that ED acknowledged it in its console (the case channel's
 *   `acknowledged` event, held by EdAcknowledgement's query; cleared when the destination changes);
 * - a calm line while offline that says the changes are kept on the device.
 * A change made after the ED saw the case shows as waiting, then the line returns to "Seen by …".
 */
import { useEffect, useRef, useState } from 'react';
import type { Hospital } from '@inbound/contract';
import { caseOutbox } from '../../lib/caseOutbox';
import { isPlaceholderId, useOutboxStatus } from '../../lib/outbox';
import { clockTime } from '../complaints/tagValues';
import { useAcknowledgement } from './EdAcknowledgement';

/** When each case last became fully delivered in this tab (a reload shows "Sent" without the time). */
const deliveredAt = new Map<string, Date>();

export function DeliveryState({
  caseId,
  destination,
  online,
}: {
  caseId: string;
  destination: Hospital | null;
  online: boolean;
}) {
  const status = useOutboxStatus(caseOutbox, caseId);
  const seen = useAcknowledgement(caseId);
  const wasPending = useRef(status.pending > 0);
  const [sentAt, setSentAt] = useState<Date | null>(() => deliveredAt.get(caseId) ?? null);

  useEffect(() => {
    if (status.pending > 0) {
      wasPending.current = true;
      return;
    }
    if (wasPending.current && online) {
      wasPending.current = false;
      const at = new Date();
      deliveredAt.set(caseId, at);
      setSentAt(at);
    }
  }, [caseId, status.pending, online]);

  // Something still to send says so first (the count beside it); an earlier "Seen" stays true offline.
  if (!online && (status.pending > 0 || !seen)) {
    return (
      <span className="delivery delivery--offline">
        {status.pending > 0
          ? 'Kept on this device — sends when the signal returns'
          : 'No signal — you can keep working'}
      </span>
    );
  }
  if (status.pending > 0) return null;
  if (seen) {
    return (
      <span className="delivery delivery--seen" data-testid="ed-acknowledgement">
        <span className="delivery__words">Seen by </span>
        <span className="delivery__name">{seen.hospital} ED</span>
        <span className="delivery__words">
          {` ${clockTime(new Date(seen.at))}`} <span aria-hidden="true">✓✓</span>
        </span>
      </span>
    );
  }
  if (!destination || destination.nonTwiage || isPlaceholderId(caseId)) return null;
  return (
    // The hospital's name gives way on a narrow screen, never the time or the check mark.
    <span className="delivery delivery--sent" data-testid="delivery-state">
      <span className="delivery__words">Sent to </span>
      <span className="delivery__name">{destination.name}</span>
      <span className="delivery__words">
        {sentAt ? ` ${clockTime(sentAt)}` : ''} <span aria-hidden="true">✓</span>
      </span>
    </span>
  );
}
