/**
 * Where the case's position comes from (spec §4: "via browser or desktop GPS"), behind one interface.
 * The web build has only the browser's geolocation; the desktop build registers the vehicle modem's
 * fix here (features/gps/desktopGps), which is used while it is fresh.
 */

export interface CasePosition {
  latitude: number;
  longitude: number;
  accuracy?: number;
  /** When the position was taken (ISO 8601). */
  recordedAt: string;
}

type ModemPosition = () => CasePosition | null;

let modemPosition: ModemPosition | null = null;

/** Desktop: the modem's current position, or null when it is quiet and the browser must answer. */
export function registerModemPosition(source: ModemPosition): void {
  modemPosition = source;
}

export function currentModemPosition(): CasePosition | null {
  return modemPosition?.() ?? null;
}

let lastPosition: CasePosition | null = null;

/** The truck's latest position sent with the case (destination advice counts its ETAs from it). */
export function rememberPosition(position: CasePosition): void {
  lastPosition = position;
}

export function lastKnownPosition(): CasePosition | null {
  return currentModemPosition() ?? lastPosition;
}
