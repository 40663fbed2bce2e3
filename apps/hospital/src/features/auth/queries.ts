import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/client';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
  mfa: () => [...authKeys.all, 'mfa'] as const,
};

export function useMe() {
  return useQuery({ queryKey: authKeys.me(), queryFn: () => api('me') });
}

/** The user's two-step sign-in state (docs/security/mfa.md). */
export function useMfaStatus(enabled: boolean) {
  return useQuery({ queryKey: authKeys.mfa(), queryFn: () => api('mfaStatus'), staleTime: 60_000, enabled });
}
