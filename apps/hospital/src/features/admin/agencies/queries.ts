import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCreateAgencyBody, AdminTruckBody, AdminUpdateAgencyBody } from '@inbound/contract';
import { api } from '../../../lib/client';

export const agencyKeys = {
  all: ['admin', 'agencies'] as const,
  one: (id: string) => ['admin', 'agencies', id] as const,
};

export const useAdminAgencies = () =>
  useQuery({ queryKey: agencyKeys.all, queryFn: () => api('adminAgencies').then((r) => r.agencies) });

export const useAdminAgency = (id: string | null) =>
  useQuery({
    queryKey: agencyKeys.one(id ?? ''),
    queryFn: () => api('adminAgency', { params: { id: id ?? '' } }),
    enabled: id !== null,
  });

/** Creates (no id) or updates an agency; the list and the agency are read again afterwards. */
export function useSaveAgency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AdminCreateAgencyBody }) =>
      id === null
        ? api('adminCreateAgency', { body })
        : api('adminUpdateAgency', { params: { id }, body: body satisfies AdminUpdateAgencyBody }),
    onSuccess: (agency) => {
      queryClient.setQueryData(agencyKeys.one(agency.id), agency);
      void queryClient.invalidateQueries({ queryKey: agencyKeys.all, exact: true });
    },
  });
}

function useTruckMutation<V>(agencyId: string, fn: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: agencyKeys.one(agencyId) });
      void queryClient.invalidateQueries({ queryKey: agencyKeys.all, exact: true });
    },
  });
}

export const useAddTruck = (agencyId: string) =>
  useTruckMutation(agencyId, (body: AdminTruckBody) => api('adminAddTruck', { params: { id: agencyId }, body }));

export const useUpdateTruck = (agencyId: string) =>
  useTruckMutation(agencyId, ({ truckId, body }: { truckId: string; body: Partial<AdminTruckBody> }) =>
    api('adminUpdateTruck', { params: { id: agencyId, truckId }, body }),
  );

export const useRemoveTruck = (agencyId: string) =>
  useTruckMutation(agencyId, (truckId: string) => api('adminRemoveTruck', { params: { id: agencyId, truckId } }));
