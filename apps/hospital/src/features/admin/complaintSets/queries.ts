import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComplaintSetImport } from '@inbound/contract';
import { api } from '../../../lib/client';

export const complaintSetKeys = { all: ['admin', 'complaint-sets'] as const };

export const useAdminComplaintSets = () =>
  useQuery({ queryKey: complaintSetKeys.all, queryFn: () => api('adminComplaintSets').then((r) => r.sets) });

export function useImportComplaintSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: ComplaintSetImport) => api('adminImportComplaintSet', { body: file }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: complaintSetKeys.all }),
  });
}

export const exportComplaintSet = (name: string) => api('adminExportComplaintSet', { query: { name } });
