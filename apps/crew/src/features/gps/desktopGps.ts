/**
 * The desktop build's link to its host's GPS (apps/desktop): a local WebSocket that brings each new
 * fix from the vehicle modem at once, and the installer's status twice a second at most. Kept in memory
 * only — a position is worth nothing after 30 s, and the host keeps the config. Reconnects on its own
 * (the host restarting) every 2 s.
 */
import { create } from 'zustand';
import {
  DESKTOP_GPS_SOCKET_PATH,
  DesktopGpsMessage,
  GPS_QUIET_MS,
  type DesktopGpsFix,
  type GpsStatus,
} from '@inbound/contract';
import { registerModemPosition } from '../../lib/positionSource';

interface DesktopGpsState {
  connected: boolean;
  /** The newest fix from the modem, with when the host received it. */
  fix: DesktopGpsFix | null;
  status: GpsStatus | null;
}

export const useDesktopGps = create<DesktopGpsState>(() => ({ connected: false, fix: null, status: null }));

const RECONNECT_MS = 2_000;
let started = false;

export function startDesktopGps(): void {
  if (started) return;
  started = true;
  connect();
}

function connect(): void {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}${DESKTOP_GPS_SOCKET_PATH}`);
  socket.onopen = () => useDesktopGps.setState({ connected: true });
  socket.onmessage = (event) => {
    const parsed = DesktopGpsMessage.safeParse(JSON.parse(String(event.data)));
    if (!parsed.success) return console.warn('desktop GPS: unexpected message', parsed.error.issues[0]?.message);
    const message = parsed.data;
    if (message.type === 'fix') useDesktopGps.setState({ fix: message.fix });
    else
      useDesktopGps.setState({ status: message.status, fix: message.status.lastFix ?? useDesktopGps.getState().fix });
  };
  socket.onclose = () => {
    useDesktopGps.setState({ connected: false });
    setTimeout(connect, RECONNECT_MS);
  };
}

/** How old a fix is: by the receiver's clock, and never less than the time since the host received it. */
export function fixAgeMs(fix: DesktopGpsFix, now: number): number {
  return Math.max(0, now - Date.parse(fix.time), now - Date.parse(fix.receivedAt));
}

/**
 * The modem's position to use now, or null when the browser's must be used instead: the installer chose
 * the browser, the host is not reachable, or the modem has been quiet (no new fix) for 30 s.
 */
export function currentModemFix(state: DesktopGpsState, now: number): DesktopGpsFix | null {
  if (!state.connected || !state.fix || state.status?.config.source === 'browser') return null;
  return fixAgeMs(state.fix, now) <= GPS_QUIET_MS ? state.fix : null;
}

/** The case's location updates take the modem's fix while it is fresh (lib/positionSource). */
registerModemPosition(() => {
  const fix = currentModemFix(useDesktopGps.getState(), Date.now());
  return fix ? { latitude: fix.lat, longitude: fix.lon, recordedAt: fix.time } : null;
});
