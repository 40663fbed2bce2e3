/**
 * The team's complaint set (GET /v4/complaintSets?name={team.complaintSet}&firstOccurrenceOnly=true,
 * newest version first). Cached by TanStack Query and kept in the session (`complaintSet`, stored on the
 * device): it is fetched when the truck is chosen and on Start, so a case started with no coverage has
 * its list, and the stored copy is the query's initial data after a reload.
 */
import { useQuery } from '@tanstack/react-query';
import type { ComplaintSet, Team } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { queryClient } from '../../lib/queryClient';
import { useSession } from '../../lib/session';

export const complaintSetKeys = {
  all: ['complaintSets'] as const,
  byName: (name: string) => ['complaintSets', name] as const,
};

async function fetchComplaintSet(name: string, signal?: AbortSignal): Promise<ComplaintSet | null> {
  const sets = await api.call('complaintSets', { query: { name, firstOccurrenceOnly: 'true' }, signal });
  const newest = sets[0] ?? null;
  if (newest) useSession.setState({ complaintSet: newest });
  return newest;
}

function storedSet(name: string): ComplaintSet | undefined {
  const stored = useSession.getState().complaintSet;
  return stored?.name === name ? stored : undefined;
}

export function complaintSetQueryOptions(name: string) {
  return {
    queryKey: complaintSetKeys.byName(name),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchComplaintSet(name, signal),
    initialData: storedSet(name),
    // The stored copy shows at once; a fresh one is fetched in the background when online.
    initialDataUpdatedAt: 0,
    staleTime: 5 * 60_000,
    retry: false,
  };
}

export function useComplaintSet(name: string) {
  return useQuery(complaintSetQueryOptions(name));
}

/** Fetches and keeps the team's set; a failure is quiet (the stored copy, if any, stays). */
export async function prefetchComplaintSet(team: Team): Promise<void> {
  try {
    await queryClient.prefetchQuery(complaintSetQueryOptions(team.complaintSet));
  } catch {
    // prefetchQuery does not throw; kept for safety.
  }
}
