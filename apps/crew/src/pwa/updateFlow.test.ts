import { describe, expect, it, vi } from 'vitest';
import { messages } from '@inbound/contract';
import { busyReasons, isBusy, markBusy, whenIdle } from './busy';
import { createUpdateFlow } from './updateFlow';

/** Lets pending promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function setup() {
  const log: string[] = [];
  const flow = createUpdateFlow({
    whenIdle,
    showAlert: (message) => log.push(`alert: ${message}`),
    activate: () => log.push('activate'),
    reload: () => log.push('reload'),
    sleep: () => Promise.resolve(),
  });
  return { flow, log };
}

describe('busy registry', () => {
  it('is busy while any reason is held; releasing twice is harmless', async () => {
    expect(isBusy()).toBe(false);
    const releaseCall = markBusy('call');
    const releaseRecording = markBusy('recording');
    expect(busyReasons()).toEqual(['call', 'recording']);
    let idle = false;
    void whenIdle().then(() => (idle = true));
    releaseCall();
    releaseCall();
    await settle();
    expect(isBusy()).toBe(true);
    expect(idle).toBe(false);
    releaseRecording();
    await settle();
    expect(isBusy()).toBe(false);
    expect(idle).toBe(true);
  });
});

describe('a waiting new version (spec §4 Service worker)', () => {
  it("shows 'New version available. Reloading page...', activates the new worker, reloads when it controls", async () => {
    const { flow, log } = setup();
    await flow.onWaiting();
    expect(messages.newVersion).toBe('New version available. Reloading page...');
    expect(log).toEqual(['alert: New version available. Reloading page...', 'activate']);
    await flow.onControlling();
    expect(log).toEqual(['alert: New version available. Reloading page...', 'activate', 'reload']);
  });

  it('waits for a call to end before the alert and the activation', async () => {
    const { flow, log } = setup();
    const endCall = markBusy('call');
    const done = flow.onWaiting();
    await settle();
    expect(log).toEqual([]);
    endCall();
    await done;
    expect(log).toEqual([`alert: ${messages.newVersion}`, 'activate']);
  });

  it('does not activate when a recording starts while the alert is showing', async () => {
    const log: string[] = [];
    let finishAlert = () => {};
    let release = () => {};
    const flow = createUpdateFlow({
      whenIdle,
      showAlert: (message) => {
        log.push(`alert: ${message}`);
        release = markBusy('recording');
      },
      activate: () => log.push('activate'),
      reload: () => log.push('reload'),
      sleep: () => new Promise<void>((resolve) => (finishAlert = resolve)),
    });
    const done = flow.onWaiting();
    await settle();
    finishAlert();
    await settle();
    expect(log).toEqual([`alert: ${messages.newVersion}`]);
    release();
    await done;
    expect(log).toEqual([`alert: ${messages.newVersion}`, 'activate']);
  });

  it('defers the reload of a page a new version took over (another tab activated it) while a consult runs', async () => {
    const { flow, log } = setup();
    const endConsult = markBusy('consult');
    const reloaded = flow.onControlling();
    await settle();
    expect(log).toEqual([]);
    endConsult();
    await reloaded;
    expect(log).toEqual(['reload']);
    await flow.onControlling();
    expect(log).toEqual(['reload']);
  });

  it('announces once when the waiting event repeats', async () => {
    const { flow, log } = setup();
    const release = markBusy('call');
    const first = flow.onWaiting();
    const second = flow.onWaiting();
    release();
    await Promise.all([first, second]);
    expect(log.filter((entry) => entry === 'activate')).toHaveLength(1);
  });

  it('shows nothing, activates nothing and reloads nothing while the app stays busy', async () => {
    const showAlert = vi.fn();
    const activate = vi.fn();
    const reload = vi.fn();
    const flow = createUpdateFlow({ whenIdle: () => new Promise(() => {}), showAlert, activate, reload });
    void flow.onWaiting();
    void flow.onControlling();
    await settle();
    expect(showAlert).not.toHaveBeenCalled();
    expect(activate).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});
