/**
 * Whether the app was last left with a case open, readable synchronously at start. The session itself is
 * decrypted from IndexedDB first (a few hundred ms on a phone); this lets the case screen's code load
 * meanwhile. Only a flag — no patient data, no ids. A stale or refused flag costs one chunk load at most:
 * the guard still decides where the app goes.
 */
import { readDeviceFlag, writeDeviceFlag } from '../lib/deviceFlag';

const KEY = 'inbound.caseScreenExpected';

export function caseScreenExpected(): boolean {
  return readDeviceFlag(KEY);
}

export function rememberCaseScreen(caseActive: boolean): void {
  writeDeviceFlag(KEY, caseActive);
}
