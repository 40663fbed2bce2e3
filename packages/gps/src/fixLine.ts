import type { GpsFix } from './fix';

/**
 * The one-line JSON form of a fix that `npm run gps:decode` prints and support staff compare:
 * `{"time","lat","lon","speedMps","course","valid":true}`, in that order.
 */
export function fixLine(fix: GpsFix): string {
  const { time, lat, lon, speedMps, course, valid } = fix;
  return JSON.stringify({ time, lat, lon, speedMps, course, valid });
}
