import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { appConfig } from '../lib/config';
import { useSession } from '../lib/session';
import { isTokenValid } from '../lib/token';
import { AlertHost } from '../ui/AlertHost';
import { validateSession } from '../features/auth/session';
import { FeedbackLink } from '../features/feedback/FeedbackLink';
import { closeStartShell } from '../features/start/startShellTap';
import { useAutoLogout } from '../features/shift/useAutoLogout';
import { resolveNavigation } from './guard';
import { paths } from './paths';

/**
 * The frame around every screen: applies the navigation guard on every navigation and session change,
 * re-validates the token on window focus, runs the auto-logout check, and shows the footer (version,
 * Feedback) and in-app alerts.
 */
export function AppShell() {
  const location = useLocation();
  const navigate = useNavigate();
  const jwt = useSession((state) => state.jwt);
  const hasTeam = useSession((state) => state.selectedTeam !== null);
  const hasTruck = useSession((state) => state.selectedTruck !== null);
  const caseActive = useSession((state) => state.caseActive);
  const mustChangePassword = useSession((state) => state.user?.mustChangePassword === true);

  useAutoLogout();
  useTokenRevalidation();

  // Signed out from anywhere (including /protocol, which the guard allows signed out): back to login.
  const wasSignedIn = useRef(jwt !== null);
  useEffect(() => {
    if (wasSignedIn.current && jwt === null) void navigate(paths.login, { replace: true });
    wasSignedIn.current = jwt !== null;
  }, [jwt, navigate]);

  const redirect = resolveNavigation({
    path: location.pathname,
    hasToken: jwt !== null,
    tokenValid: isTokenValid(jwt),
    hasTeam,
    hasTruck,
    caseActive,
    mustChangePassword,
  });
  // A tap on start.html's START CASE is Start's to act on. When the first screen is another (signed out:
  // login; a case open: the case), it is forgotten, never acted on after a later sign-in (decision 0043).
  const firstScreenIsStart = useRef(redirect === null && location.pathname === paths.start);
  useEffect(() => {
    if (!firstScreenIsStart.current) closeStartShell();
  }, []);
  if (redirect !== null && redirect !== location.pathname) return <Navigate to={redirect} replace />;

  const onLogin = location.pathname === paths.login;
  return (
    <div className="shell">
      <main className="shell__main">
        <Outlet />
      </main>
      <footer className="footer">
        {!onLogin && jwt !== null && <FeedbackLink />}
        <span className="footer__version">v{appConfig.version}</span>
      </footer>
      <AlertHost />
    </div>
  );
}

/** Spec §4: the token is re-validated at start (main.tsx), on window focus, and on every navigation. */
function useTokenRevalidation(): void {
  const location = useLocation();
  useEffect(() => {
    validateSession();
  }, [location.pathname]);
  useEffect(() => {
    const onFocus = () => validateSession();
    const onVisible = () => {
      if (document.visibilityState === 'visible') validateSession();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
}
