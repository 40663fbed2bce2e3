/**
 * Whether the app was last left with a case open, readable synchronously at start. The session itself is
 * decrypted from IndexedDB first (a few hundred ms on a phone); this lets the case screen's code load
 * meanwhile. Only a flag — no patient data, no ids — so plain localStorage. A stale flag costs one chunk
 * load at most: the guard still decides where the app goes.
 */
const KEY = 'inbound.caseScreenExpected';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage disabled (a privacy setting): no hint, the app starts as before.
    return null;
  }
}

export function caseScreenExpected(): boolean {
  try {
    return storage()?.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberCaseScreen(caseActive: boolean): void {
  try {
    if (caseActive) storage()?.setItem(KEY, '1');
    else storage()?.removeItem(KEY);
  } catch {
    // Quota or storage disabled: only the hint is lost.
  }
}
