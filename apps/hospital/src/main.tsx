import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { ApiError } from './lib/api';
import { createBrowserFieldErrors } from '@inbound/client';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Retry only what a retry can fix: no response or a server-side failure, never a 4xx.
      retry: (failureCount, error) =>
        failureCount < 2 && error instanceof ApiError && (error.status === null || error.status >= 500),
      refetchOnWindowFocus: true,
    },
  },
});

createBrowserFieldErrors('hospital').reportUncaughtErrors();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/hospital">
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
