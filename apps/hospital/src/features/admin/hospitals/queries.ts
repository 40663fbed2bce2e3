import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCreateHospitalBody } from '@inbound/contract';
import { api } from '../../../lib/client';

export const hospitalKeys = { all: ['admin', 'hospitals'] as const };

export const useAdminHospitals = () =>
  useQuery({ queryKey: hospitalKeys.all, queryFn: () => api('adminHospitals').then((r) => r.hospitals) });

/** Creates (no id) or updates a hospital; the list is read again afterwards. */
export function useSaveHospital() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AdminCreateHospitalBody }) =>
      id === null ? api('adminCreateHospital', { body }) : api('adminUpdateHospital', { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: hospitalKeys.all }),
  });
}
