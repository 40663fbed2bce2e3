/** Server state of user administration: the user list, membership options, and the changes to users. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUsersQuery, InviteUserBody, UpdateUserBody } from '@inbound/contract';
import { api } from '../../../lib/client';
import { auditKeys } from '../audit/queries';

export const adminUserKeys = {
  all: ['admin', 'users'] as const,
  list: (query: AdminUsersQuery) => [...adminUserKeys.all, 'list', query] as const,
  options: () => ['admin', 'membership-options'] as const,
};

export function useAdminUsers(query: AdminUsersQuery) {
  return useQuery({
    queryKey: adminUserKeys.list(query),
    queryFn: () => api('adminUsers', { query: definedOnly(query) }),
    placeholderData: (previous) => previous,
  });
}

export function useMembershipOptions() {
  return useQuery({
    queryKey: adminUserKeys.options(),
    queryFn: () => api('adminMembershipOptions'),
    staleTime: 60_000,
  });
}

/** After any change: the list and the audit log are out of date. */
function useInvalidateAdmin() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
      queryClient.invalidateQueries({ queryKey: auditKeys.all }),
    ]);
}

export function useInviteUser() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (body: InviteUserBody) => api('inviteUser', { body }),
    onSuccess: () => void invalidate(),
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateUserBody }) => api('updateUser', { params: { id }, body }),
    onSuccess: () => void invalidate(),
  });
}

export function useResetPassword() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (id: string) => api('resetUserPassword', { params: { id } }),
    onSuccess: () => void invalidate(),
  });
}

export function useSetDisabled() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      api(disabled ? 'disableUser' : 'enableUser', { params: { id } }),
    onSuccess: () => void invalidate(),
  });
}

/** Query strings carry no `undefined`: absent filters are left out. */
export function definedOnly<T extends Record<string, unknown>>(query: T): T {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as T;
}

/** Clears a user's second factors (lost phone or key): they set up again at their next sign-in. */
export function useClearMfa() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (id: string) => api('adminClearUserMfa', { params: { id } }),
    onSuccess: () => void invalidate(),
  });
}
