import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/client';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

export function useMe() {
  return useQuery({ queryKey: authKeys.me(), queryFn: () => api('me') });
}
