/**
 * "Seen by {hospital} ED hh:mm": the destination ED has acknowledged the case in its console (not in
 * the spec; crews ask for it). Read from the server's case (GET /v4/twiageCases/{id}) and read again
 * when the case channel says the case was acknowledged or its destination changed; while the live
 * connection is down, every 30 s. Nothing shows before the case has its server id or before the ED
 * has seen it.
 */
import { useQuery } from '@tanstack/react-query';
import { channelName } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { isPlaceholderId } from '../../lib/outbox';
import { useChannel, useRealtimeState } from '../../lib/realtime/useChannel';
import styles from './EdAcknowledgement.module.css';

const REFETCH_ON = new Set(['acknowledged', 'hospital']);
const OFFLINE_POLL_MS = 30_000;

export const acknowledgementKey = (caseId: string) => ['case-acknowledgement', caseId] as const;

function clock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

export function EdAcknowledgement({ caseId }: { caseId: string }) {
  const live = !isPlaceholderId(caseId);
  const connection = useRealtimeState();
  const query = useQuery({
    queryKey: acknowledgementKey(caseId),
    queryFn: async ({ signal }) => {
      const c = await api.call('getCase', { params: { id: caseId }, signal });
      return c.acknowledgedAt && c.acknowledgedByHospital
        ? { hospital: c.acknowledgedByHospital, at: c.acknowledgedAt }
        : null;
    },
    enabled: live,
    refetchInterval: connection === 'open' ? false : OFFLINE_POLL_MS,
  });
  useChannel(live ? channelName('case', caseId) : null, (event) => {
    const type = (event.data as { event?: { type?: unknown } | null } | null)?.event?.type;
    if (event.type === 'case.updated' && typeof type === 'string' && REFETCH_ON.has(type)) void query.refetch();
  });
  if (!query.data) return null;
  return (
    <p className={styles.seen} role="status" data-testid="ed-acknowledgement">
      <span aria-hidden="true">✓ </span>
      Seen by {query.data.hospital} ED {clock(query.data.at)}
    </p>
  );
}
