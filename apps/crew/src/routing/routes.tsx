/**
 * The route table, in one place. Every screen but login is loaded lazily so that the first screen's
 * JavaScript stays small; `createAppRouter` builds the web (history) router and the desktop (hash)
 * one from the same table.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, createHashRouter, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { Spinner } from '../ui/Spinner';
import { AppShell } from './AppShell';
import { paths } from './paths';
import { RouteError } from './RouteError';

function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense fallback={<Spinner label="Loading" />}>
      <Page />
    </Suspense>
  );
}

const loadCasePage = () => import('../features/case/CasePage');
const loadStartPage = () => import('../features/start/StartPage');

/**
 * Starts loading the case screen's code now. At app start with a case open (an offline restart in the
 * ambulance) this runs beside the outbox's chunks instead of after them, and the route finds it loaded.
 */
export function preloadCasePage(): void {
  loadCasePage().catch((error: unknown) => console.error('the case screen could not be preloaded', error));
}

/**
 * The same for Start, when the app is opened at /start (a signed-in crew's usual first screen): its code
 * loads while the session is decrypted instead of after it (issue 16: LCP of /start on a cellular link).
 */
export function preloadStartPage(): Promise<unknown> {
  return loadStartPage().catch((error: unknown) => console.error('the start screen could not be preloaded', error));
}

export const appRoutes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: <RouteError />,
    children: [
      { path: paths.login, element: <LoginPage /> },
      {
        path: paths.start,
        element: lazyPage(loadStartPage, (m) => m.StartPage),
      },
      {
        path: paths.teamSelection,
        element: lazyPage(
          () => import('../features/team/TeamSelectionPage'),
          (m) => m.TeamSelectionPage,
        ),
      },
      {
        path: paths.truckSelection,
        element: lazyPage(
          () => import('../features/truck/TruckSelectionPage'),
          (m) => m.TruckSelectionPage,
        ),
      },
      {
        path: paths.settings,
        element: lazyPage(
          () => import('../features/settings/SettingsPage'),
          (m) => m.SettingsPage,
        ),
      },
      {
        path: paths.shift,
        element: lazyPage(
          () => import('../features/shift/ShiftPage'),
          (m) => m.ShiftPage,
        ),
      },
      {
        path: paths.case,
        element: lazyPage(loadCasePage, (m) => m.CasePage),
      },
      {
        path: paths.security,
        element: lazyPage(
          () => import('../features/settings/SecurityPage'),
          (m) => m.SecurityPage,
        ),
      },
      {
        path: paths.changePassword,
        element: lazyPage(
          () => import('../features/settings/ChangePasswordPage'),
          (m) => m.ChangePasswordPage,
        ),
      },
      {
        path: paths.caseFeedbackSettings,
        element: lazyPage(
          () => import('../features/settings/CaseFeedbackSettingsPage'),
          (m) => m.CaseFeedbackSettingsPage,
        ),
      },
      {
        path: paths.protocol,
        element: lazyPage(
          () => import('../features/protocol/ProtocolPage'),
          (m) => m.ProtocolPage,
        ),
      },
      // Desktop only, loaded when opened (spec §2).
      ...(__INBOUND_DESKTOP__
        ? [
            {
              path: paths.gpsSource,
              element: lazyPage(
                () => import('../features/gps/GpsSourcePage'),
                (m) => m.GpsSourcePage,
              ),
            },
          ]
        : []),
      // Unknown paths: the guard sends them to start (signed in) or login.
      { path: '*', element: null },
    ],
  },
];

export type RoutingMode = 'history' | 'hash';

/** Web: history routing. Desktop: hash routing, same routes (plus /gpsSource). */
export function createAppRouter(mode: RoutingMode = 'history') {
  return mode === 'hash' ? createHashRouter(appRoutes) : createBrowserRouter(appRoutes);
}
