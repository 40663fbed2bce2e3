import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/apiClient';

export const truckKeys = {
  all: ['trucks'] as const,
  forTeam: (teamId: string) => ['trucks', teamId] as const,
};

/** The chosen team's trucks, by name. */
export function useTrucks(teamId: string | null) {
  return useQuery({
    queryKey: truckKeys.forTeam(teamId ?? ''),
    queryFn: async ({ signal }) => {
      const trucks = await api.call('trucks', { params: { id: teamId ?? '' }, signal });
      return [...trucks].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    },
    enabled: teamId !== null,
    retry: false,
  });
}
