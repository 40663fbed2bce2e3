/**
 * "Seen by {hospital} ED hh:mm": the destination ED has acknowledged the case in its console (not in
 * the spec; crews ask for it). Read from the server's case (GET /v4/twiageCases/{id}) each time the
 * case channel's subscription is (again) live — which catches up on anything missed while offline or
 * closed — and when the channel says the case was acknowledged or its destination changed. Nothing
 * shows before the case has its server id or before the ED has seen it.
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CASE_CHANNEL_EVENTS, channelName, parseChannelMessage } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { isPlaceholderId } from '../../lib/outbox';
import { realtime } from '../../lib/realtime';
import styles from './EdAcknowledgement.module.css';

const REFETCH_ON = new Set(['acknowledged', 'hospital']);

export const acknowledgementKey = (caseId: string) => ['case-acknowledgement', caseId] as const;

function clock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

export function EdAcknowledgement({ caseId }: { caseId: string }) {
  const live = !isPlaceholderId(caseId);
  const query = useQuery({
    queryKey: acknowledgementKey(caseId),
    queryFn: async ({ signal }) => {
      const c = await api.call('getCase', { params: { id: caseId }, signal });
      return c.acknowledgedAt && c.acknowledgedByHospital
        ? { hospital: c.acknowledgedByHospital, at: c.acknowledgedAt }
        : null;
    },
    // Read only when the channel says so (below): an unconnected screen makes no requests.
    enabled: false,
  });
  const { refetch } = query;
  useEffect(() => {
    if (!live) return undefined;
    return realtime.subscribe(channelName('case', caseId), {
      onSubscribed: () => void refetch(),
      onEvent: (event) => {
        const message = parseChannelMessage('case', event);
        if (message?.type === CASE_CHANNEL_EVENTS.caseUpdated && REFETCH_ON.has(message.data.event.type))
          void refetch();
      },
    });
  }, [caseId, live, refetch]);
  if (!query.data) return null;
  return (
    <p className={styles.seen} role="status" data-testid="ed-acknowledgement">
      <span aria-hidden="true">✓ </span>
      Seen by {query.data.hospital} ED {clock(query.data.at)}
    </p>
  );
}
