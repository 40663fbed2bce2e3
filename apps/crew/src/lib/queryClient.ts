import { QueryClient } from '@tanstack/react-query';

/** Server state cache. Logout clears it (features/auth/logout). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: 0 },
  },
});
