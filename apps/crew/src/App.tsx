import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import type { createAppRouter } from './routing/routes';
import { queryClient } from './lib/queryClient';

type AppRouter = ReturnType<typeof createAppRouter>;

/** Providers and the router. The router is made by the caller (web, desktop, tests) from routing/routes. */
export function App({ router }: { router: AppRouter }) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
