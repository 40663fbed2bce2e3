/**
 * The route table, in one place. Every screen but login is loaded lazily so that the first screen's
 * JavaScript stays small; `createAppRouter` builds the web (history) router and the desktop (hash)
 * one from the same table.
 */
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { createBrowserRouter, createHashRouter, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { Spinner } from '../ui/Spinner';
import { AppShell } from './AppShell';
import { paths } from './paths';
import { RouteError } from './RouteError';

function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazyScreen(load, pick).element;
}

/**
 * A screen whose code loads when first needed. Once it is in (preloaded at app start), a route that mounts
 * draws it at once: with `lazy` alone React first commits the Suspense fallback even for code already
 * loaded, then renders again when the promise settles, and holds that second commit for its fallback
 * throttle (300 ms) — on a phone, a spinner frame and a delay between the splash and the screen (issue
 * 16: /start's LCP). Decided once per mount, so a screen is never remounted when its code arrives.
 */
function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  let loaded: ComponentType | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = pick(module);
      return module;
    });
  const Page = lazy(async () => ({ default: pick(await preload()) }));
  function Screen() {
    const [Loaded] = useState(() => loaded);
    if (Loaded) return <Loaded />;
    return (
      <Suspense fallback={<Spinner label="Loading" />}>
        <Page />
      </Suspense>
    );
  }
  return { element: <Screen />, preload };
}

const caseScreen = lazyScreen(
  () => import('../features/case/CasePage'),
  (m) => m.CasePage,
);
const startScreen = lazyScreen(
  () => import('../features/start/StartPage'),
  (m) => m.StartPage,
);

/**
 * Starts loading the case screen's code now. At app start with a case open (an offline restart in the
 * ambulance) this runs beside the outbox's chunks instead of after them, and the route finds it loaded.
 */
export function preloadCasePage(): void {
  caseScreen.preload().catch((error: unknown) => console.error('the case screen could not be preloaded', error));
}

/**
 * The same for Start, when the app is opened at /start (a signed-in crew's usual first screen): its code
 * loads while the session is decrypted instead of after it, and main.tsx renders once both are done, so
 * Start draws in React's first commit (issue 16: LCP of /start on a cellular link). Never rejects.
 */
export function preloadStartPage(): Promise<unknown> {
  return startScreen
    .preload()
    .catch((error: unknown) => console.error('the start screen could not be preloaded', error));
}

export const appRoutes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: <RouteError />,
    children: [
      { path: paths.login, element: <LoginPage /> },
      {
        path: paths.start,
        element: startScreen.element,
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
        element: caseScreen.element,
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
