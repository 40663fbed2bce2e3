import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { App } from '../App';
import { useAlerts } from '../lib/alerts';
import { queryClient } from '../lib/queryClient';
import { resetSessionForTests, type StoredSession } from '../lib/session';
import { appRoutes } from '../routing/routes';
import '../features/auth/session';

/** The whole app (real routes, guard, providers) at `path`, with the given session. */
export function renderApp(path: string, session: Partial<StoredSession> = {}) {
  queryClient.clear();
  useAlerts.setState({ queue: [] });
  resetSessionForTests(session);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(<App router={router} />);
  return { ...view, router, user };
}
