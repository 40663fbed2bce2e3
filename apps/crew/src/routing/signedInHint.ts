/**
 * Whether a crew was signed in on this device when the app last ran, readable before any of the app's code:
 * index.html's launch script (build/launchSplash.ts) reads it to show its static screen as a plain splash
 * (the brand, no sign-in card) while the stored session is decrypted, instead of a sign-in screen that a
 * signed-in crew would take for a logout. Only a flag — no patient data, no ids. A stale flag costs the
 * card's moment on the splash; the session decides where the app goes.
 */
import { writeDeviceFlag } from '../lib/deviceFlag';

export const SIGNED_IN_KEY = 'inbound.signedIn';

export function rememberSignedIn(signedIn: boolean): void {
  writeDeviceFlag(SIGNED_IN_KEY, signedIn);
}
