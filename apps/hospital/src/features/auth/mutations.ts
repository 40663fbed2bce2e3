import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/client';
import { clearSession, setSession } from '../../lib/session';
import type { SignInFields } from './validation';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, password }: SignInFields) =>
      api('signIn', { body: { username: username.trim(), password, twiageClient: 'hospital', platform: 'web' } }),
    onSuccess: ({ authorizationToken }) => {
      queryClient.clear();
      setSession(authorizationToken);
    },
  });
}

/**
 * Signs out on the server (revoking the token) and always locally, even when the server cannot be reached:
 * on a shared screen the next person must never inherit this session.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('signOut').catch(() => undefined),
    onSettled: () => {
      clearSession();
      queryClient.clear();
    },
  });
}
