import { useQueries } from '@tanstack/react-query';
import { api } from '../../lib/client';

export const hospitalKeys = {
  all: ['hospitals'] as const,
  detail: (id: string) => [...hospitalKeys.all, id] as const,
};

/** The hospitals the signed-in user staffs, one query each (a user usually staffs one ED). */
export function useHospitals(ids: readonly string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: hospitalKeys.detail(id),
      queryFn: () => api('hospital', { params: { id } }),
    })),
  });
}
