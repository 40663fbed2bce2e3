/**
 * "Stroke team: Dr Okafor ✓ 12:04 · Dr Lee ✓ 12:05": who of the destination's activated team is on the
 * way (issue 15 item 1). Like the "Seen by" line, the screen itself makes no request: the case channel
 * (caseChannel.ts) reads the activations (GET /v4/twiageCases/{id}/activations) when its subscription
 * may have missed something, applies "on my way" in place, and reads again on the other team events.
 * One line (two at most), so the case screen still fits without scrolling.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ACTIVATION_CASE_EVENTS, type ActivationsResponse, type RecordedCaseEvent } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { isPlaceholderId } from '../../lib/outbox';
import styles from './TeamsOnTheWay.module.css';

export const activationsKey = (caseId: string) => ['case-activations', caseId] as const;

export const isTeamEvent = (event: RecordedCaseEvent): boolean =>
  (ACTIVATION_CASE_EVENTS as readonly string[]).includes(event.type);

/** Applies a team event of the case channel: "on my way" in place, anything else read again. */
export function applyTeamEvent(queryClient: QueryClient, caseId: string, event: RecordedCaseEvent): void {
  const key = activationsKey(caseId);
  const held = queryClient.getQueryData<ActivationsResponse>(key);
  if (event.type === 'teamAcknowledged' && held?.data.some((a) => a._id === event.payload.activationId)) {
    const { activationId, userId } = event.payload;
    queryClient.setQueryData<ActivationsResponse>(key, {
      data: held.data.map((a) =>
        a._id !== activationId
          ? a
          : {
              ...a,
              members: a.members.map((m) => (m.userId === userId ? { ...m, acknowledgedAt: event.createdAt } : m)),
            },
      ),
    });
    return;
  }
  readActivations(queryClient, caseId);
}

/** The server's word on the case's activations; offline or refused: what is shown stays. */
export function readActivations(queryClient: QueryClient, caseId: string): void {
  if (isPlaceholderId(caseId)) return;
  queryClient
    .fetchQuery({
      queryKey: activationsKey(caseId),
      queryFn: ({ signal }) => api.call('crewCaseActivations', { params: { id: caseId }, signal }),
      staleTime: 0,
    })
    .catch(() => undefined);
}

/** The destination changed: the old hospital's teams are not coming (the new one's arrive as events). */
export function forgetActivations(queryClient: QueryClient, caseId: string): void {
  queryClient.setQueryData<ActivationsResponse>(activationsKey(caseId), { data: [] });
}

function clock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

export function TeamsOnTheWay({ caseId }: { caseId: string }) {
  // Filled by the case channel (caseChannel.ts); an unconnected screen makes no requests.
  const query = useQuery<ActivationsResponse | null>({
    queryKey: activationsKey(caseId),
    queryFn: () => null,
    enabled: false,
  });
  const active = (query.data?.data ?? []).filter((a) => a.status === 'active');
  if (active.length === 0) return null;
  return (
    <div className={styles.teams} role="status" data-testid="teams-on-the-way">
      {active.map((a) => {
        const coming = a.members
          .filter((m) => m.acknowledgedAt !== null)
          .sort((x, y) => Date.parse(x.acknowledgedAt ?? '') - Date.parse(y.acknowledgedAt ?? ''));
        return (
          <p key={a._id} className={styles.line}>
            <strong>{a.teamName} team</strong>{' '}
            {coming.length === 0
              ? `activated ${clock(a.activatedAt)}, waiting for answers`
              : coming.map((m) => `${m.name} ✓ ${clock(m.acknowledgedAt ?? '')}`).join(' · ')}
          </p>
        );
      })}
    </div>
  );
}
