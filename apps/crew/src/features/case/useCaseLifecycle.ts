/**
 * What runs while a case is open (spec §4): a position every 15 s to locationUpdates — the desktop's
 * modem fix while it is fresh, else the browser's (high accuracy, no cached position) — and the
 * auto-close once maxCaseLength minutes have passed since createdAt.
 */
import { useEffect, useState } from 'react';
import { LOCATION_UPDATE_MS } from '@inbound/contract';
import { currentModemPosition, rememberPosition } from '../../lib/positionSource';
import { autoCloseDelayMs } from './caseModel';
import { closeCase, recordLocation } from './mutations';

/** How often the auto-close deadline is checked: timers stop while a tablet sleeps, so it is polled. */
export const AUTO_CLOSE_CHECK_MS = 5_000;

/** Whether positions reach the case: 'off' once the crew (or the device) has refused location. */
export type LocationState = 'pending' | 'on' | 'off';

/**
 * A position every 15 s while a case is open: the desktop modem's fix when it is fresh, else the browser's.
 * A refusal (PERMISSION_DENIED) stops asking the browser — asking again every 15 s only repeats the same
 * error — and the case screen says location is off (issue 16, item 7); a position that is merely
 * unavailable for now (tunnel, no fix) keeps asking.
 */
export function useLocationUpdates(active: boolean): LocationState {
  const [state, setState] = useState<LocationState>('pending');
  useEffect(() => {
    if (!active) return;
    const options: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: LOCATION_UPDATE_MS };
    let refused = false;
    const report = () => {
      const modem = currentModemPosition();
      if (modem) {
        setState('on');
        return void recordLocation(modem);
      }
      if (refused || typeof navigator === 'undefined' || !('geolocation' in navigator)) return;
      navigator.geolocation.getCurrentPosition(
        ({ coords, timestamp }) => {
          setState('on');
          const position = {
            latitude: coords.latitude,
            longitude: coords.longitude,
            accuracy: coords.accuracy,
            recordedAt: new Date(timestamp || Date.now()).toISOString(),
          };
          rememberPosition(position);
          void recordLocation(position);
        },
        (error) => {
          if (error.code === error.PERMISSION_DENIED) {
            // Asked again it would only fail again; a desktop modem's fixes still count (above).
            refused = true;
            setState('off');
            return;
          }
          console.warn('position unavailable', error.message);
        },
        options,
      );
    };
    report();
    const timer = setInterval(report, LOCATION_UPDATE_MS);
    return () => clearInterval(timer);
  }, [active]);
  return state;
}

export function useAutoClose(createdAt: string | null, maxCaseLengthMinutes: number | null): void {
  useEffect(() => {
    if (!createdAt || !maxCaseLengthMinutes) return;
    const check = () => {
      if (autoCloseDelayMs(createdAt, maxCaseLengthMinutes, Date.now()) === 0) void closeCase();
    };
    check();
    const timer = setInterval(check, AUTO_CLOSE_CHECK_MS);
    return () => clearInterval(timer);
  }, [createdAt, maxCaseLengthMinutes]);
}
