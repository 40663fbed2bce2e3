/**
 * A yes/no kept in plain localStorage: read and written synchronously, kept across reloads and app
 * kills. Only flags that hold no patient data belong here. Storage that is refused (a privacy setting,
 * a full quota) reads as "no" and keeps nothing; each caller says what that costs it.
 */
export function readDeviceFlag(key: string): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

export function writeDeviceFlag(key: string, on: boolean): void {
  try {
    if (typeof localStorage === 'undefined') return;
    if (on) localStorage.setItem(key, '1');
    else localStorage.removeItem(key);
  } catch {
    // Refused: see the caller for what is lost.
  }
}
