import { useEffect } from 'react';
import { AUTO_LOGOUT_CHECK_MS, messages } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { useSession } from '../../lib/session';
import { logout } from '../auth/logout';
import { isAutoLogoutDue, shiftEndInstant } from './shiftTime';

/** Checks the shift end every 5 s (and at once) while signed in; when reached, logs out and says why. */
export function useAutoLogout(): void {
  const signedIn = useSession((state) => state.jwt !== null);
  useEffect(() => {
    if (!signedIn) return;
    const check = () => {
      const state = useSession.getState();
      const now = new Date();
      if (!state.jwt || !isAutoLogoutDue(shiftEndInstant(state, now), now)) return;
      void logout(); // clears the setting with the rest of the session
      showAlert(messages.autoLogoutReached, 'Auto Logout');
    };
    check();
    const timer = setInterval(check, AUTO_LOGOUT_CHECK_MS);
    return () => clearInterval(timer);
  }, [signedIn]);
}
