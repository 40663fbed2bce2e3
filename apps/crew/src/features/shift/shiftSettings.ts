/** Saving and clearing the shift end in the session (persisted by lib/session). */
import { useSession } from '../../lib/session';
import { toShiftEnd } from './shiftTime';

export function saveShiftEnd(end: Date | null): void {
  if (!end) {
    useSession.setState({ autoLogoutTime: null, autoLogoutAt: null });
    return;
  }
  const { time, at } = toShiftEnd(end);
  useSession.setState({ autoLogoutTime: time, autoLogoutAt: at });
}
