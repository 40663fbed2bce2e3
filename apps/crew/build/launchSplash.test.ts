import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberSignedIn } from '../src/routing/signedInHint';
import { LAUNCH_SCRIPT, launchScriptFile, SIGNED_IN_ATTRIBUTE } from './launchSplash';

/** Runs the script as the browser does, in the head of a fresh page. */
function launch(): boolean {
  document.documentElement.removeAttribute(SIGNED_IN_ATTRIBUTE);
  new Function(LAUNCH_SCRIPT)();
  return document.documentElement.hasAttribute(SIGNED_IN_ATTRIBUTE);
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  document.documentElement.removeAttribute(SIGNED_IN_ATTRIBUTE);
});

describe('index.html’s launch script', () => {
  it('marks the page while a crew is signed in, and not once signed out', () => {
    expect(launch()).toBe(false);
    rememberSignedIn(true);
    expect(launch()).toBe(true);
    rememberSignedIn(false);
    expect(launch()).toBe(false);
    expect(localStorage.length).toBe(0);
  });

  it('leaves the page unmarked (the sign-in card shown) when storage refuses', () => {
    rememberSignedIn(true);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(launch()).toBe(false);
  });

  it('is named by its content', () => {
    expect(launchScriptFile()).toMatch(/^assets\/launch-[0-9a-f]{8}\.js$/);
    expect(launchScriptFile(`${LAUNCH_SCRIPT};`)).not.toBe(launchScriptFile());
  });
});
