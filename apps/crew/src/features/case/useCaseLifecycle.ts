/**
 * What runs while a case is open (spec §4): a position every 15 s to locationUpdates — the desktop's
 * modem fix while it is fresh, else the browser's (high accuracy, no cached position) — and the
 * auto-close once maxCaseLength minutes have passed since createdAt.
 */
import { useEffect } from 'react';
import { LOCATION_UPDATE_MS } from '@inbound/contract';
import { currentModemPosition } from '../../lib/positionSource';
import { autoCloseDelayMs } from './caseModel';
import { closeCase, recordLocation } from './mutations';

/** How often the auto-close deadline is checked: timers stop while a tablet sleeps, so it is polled. */
export const AUTO_CLOSE_CHECK_MS = 5_000;

export function useLocationUpdates(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const options: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: LOCATION_UPDATE_MS };
    const report = () => {
      const modem = currentModemPosition();
      if (modem) return void recordLocation(modem);
      if (typeof navigator === 'undefined' || !('geolocation' in navigator)) return;
      navigator.geolocation.getCurrentPosition(
        ({ coords, timestamp }) =>
          void recordLocation({
            latitude: coords.latitude,
            longitude: coords.longitude,
            accuracy: coords.accuracy,
            recordedAt: new Date(timestamp || Date.now()).toISOString(),
          }),
        (error) => console.warn('position unavailable', error.message),
        options,
      );
    };
    report();
    const timer = setInterval(report, LOCATION_UPDATE_MS);
    return () => clearInterval(timer);
  }, [active]);
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
