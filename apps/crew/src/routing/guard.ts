/**
 * The navigation guard of spec §2 as one pure function, applied on every navigation and whenever the
 * session changes (AppShell). Single sign-on ("workspace app") is not configured in Inbound, so its
 * token flow is not part of the guard.
 */
import { knownPaths, paths } from './paths';

export interface NavigationState {
  path: string;
  /** A token is stored. */
  hasToken: boolean;
  /** The stored token has not expired. */
  tokenValid: boolean;
  hasTeam: boolean;
  hasTruck: boolean;
  caseActive: boolean;
  /**
   * Ours: signed in with an administrator's one-time password (`mustChangePassword` of /users/me). The
   * server answers nothing else until it is changed, so Change password is the only screen.
   */
  mustChangePassword?: boolean;
}

/** Where to go instead of `path`, or null to stay. */
export function resolveNavigation({
  path,
  hasToken,
  tokenValid,
  hasTeam,
  hasTruck,
  caseActive,
  mustChangePassword = false,
}: NavigationState): string | null {
  const target = normalize(path);
  // An expired token with an open case still counts as signed in: the case stays on screen and the
  // session-expired modal asks for the password (spec §4). Without a case, an expired token is no token.
  const signedIn = hasToken && (tokenValid || caseActive);
  if (!signedIn) return target === paths.login || target === paths.protocol ? null : paths.login;
  if (mustChangePassword) return target === paths.changePassword ? null : paths.changePassword;
  if (!hasTeam) return target === paths.teamSelection ? null : paths.teamSelection;
  if (!hasTruck) return target === paths.truckSelection || target === paths.teamSelection ? null : paths.truckSelection;
  if (caseActive) return target === paths.case ? null : paths.case;
  if (target === paths.case || target === paths.login || !knownPaths.includes(target)) return paths.start;
  return null;
}

function normalize(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
