/** Token validation (spec §4): at start, on window focus, before START CASE, and on a 401. */
import { setUnauthorizedHandler } from '../../lib/unauthorized';
import { useSession } from '../../lib/session';
import { isTokenValid } from '../../lib/token';
import { logout } from './logout';

export type SessionCheck = 'signedOut' | 'valid' | 'loggedOut' | 'needsAuthentication';

/**
 * Checks the stored token. Invalid with an active case: sets `needsAuthentication` (the session-expired
 * modal of the case issue shows it; the case is kept). Invalid without a case: logs out.
 */
export function validateSession(now: number = Date.now()): SessionCheck {
  const { jwt } = useSession.getState();
  if (!jwt) return 'signedOut';
  if (isTokenValid(jwt, now)) return 'valid';
  return expireSession();
}

/** The server said 401: the token is no longer good, whatever its expiry says. */
export function handleUnauthorized(): SessionCheck {
  if (!useSession.getState().jwt) return 'signedOut';
  return expireSession();
}

function expireSession(): SessionCheck {
  if (useSession.getState().caseActive) {
    useSession.setState({ needsAuthentication: true });
    return 'needsAuthentication';
  }
  void logout();
  return 'loggedOut';
}

setUnauthorizedHandler(() => {
  handleUnauthorized();
});
