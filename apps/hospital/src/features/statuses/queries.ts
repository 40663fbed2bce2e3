import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HospitalStatusesResponse, SetHospitalStatusBody } from '@inbound/contract';
import { api } from '../../lib/client';

export const statusKeys = {
  active: (hospitalId: string) => ['hospital-statuses', hospitalId] as const,
};

/** The hospital's active statuses; kept fresh by `hospital.status` notices (see useStatusUpdates). */
export function useHospitalStatuses(hospitalId: string) {
  return useQuery({
    queryKey: statusKeys.active(hospitalId),
    queryFn: () => api('hospitalStatuses', { params: { id: hospitalId } }),
  });
}

export function useSetStatus(hospitalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetHospitalStatusBody) => api('setHospitalStatus', { params: { id: hospitalId }, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: statusKeys.active(hospitalId) }),
  });
}

export function useClearStatus(hospitalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (statusId: string) => api('clearHospitalStatus', { params: { id: hospitalId, statusId } }),
    // The answer is the list that stays active, so it replaces the cached one without another read.
    onSuccess: (active: HospitalStatusesResponse) => queryClient.setQueryData(statusKeys.active(hospitalId), active),
  });
}
