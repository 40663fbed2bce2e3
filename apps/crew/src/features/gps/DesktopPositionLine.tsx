import { GPS_QUIET_MS } from '@inbound/contract';
import { currentModemFix, fixAgeMs, useDesktopGps } from './desktopGps';
import { formatAge, formatCoordinates, useNow } from './useNow';
import './gps.css';

/**
 * Desktop, case screen: where the case's location updates come from right now — the modem's fix with its
 * age and source, or, when the modem has been quiet for 30 s, the browser's location, said plainly.
 */
export function DesktopPositionLine() {
  const now = useNow();
  const state = useDesktopGps();
  const fix = currentModemFix(state, now);
  if (fix)
    return (
      <p className="gps-line" role="status" data-testid="current-position">
        <span className="gps-line__source">Vehicle GPS ({fix.format})</span> {formatCoordinates(fix.lat, fix.lon)} ·{' '}
        {formatAge(fixAgeMs(fix, now))}
      </p>
    );
  const why =
    state.status?.config.source === 'browser'
      ? 'GPS Data Source is set to the browser'
      : state.fix
        ? `no fix from the vehicle GPS for ${Math.round(Math.max(fixAgeMs(state.fix, now), GPS_QUIET_MS) / 1000)} s`
        : 'no fix from the vehicle GPS';
  return (
    <p className="gps-line gps-line--fallback" role="status" data-testid="current-position">
      Using this computer&apos;s location: {why}.
    </p>
  );
}
