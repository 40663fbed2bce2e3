import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { api } from '../../lib/apiClient';
import { ApiError } from '../../lib/apiError';
import { applyHandoffWatchIssued } from '../../lib/caseOutbox';
import { resetSessionForTests, useSession, type HandoffWatch } from '../../lib/session';
import { ClosedHandoffStatus } from './ClosedHandoffStatus';
import { HANDOFF_POLL_MS, useHandoffWatchPolling } from './handoffWatch';

/** Start as it is once its live chunk is in: the line (drawn from the session) and the polling. */
function StartWithPolling() {
  useHandoffWatchPolling();
  return <ClosedHandoffStatus />;
}

const ISSUED_AT = Date.parse('2026-11-27T10:00:00.000Z');
const EXPIRES_AT = '2026-11-27T12:00:00.000Z';
const ACCEPTED_AT = '2026-11-27T10:20:00.000Z';
const HOSPITAL = 'Riverside Regional Medical Center';

const watch = (over: Partial<HandoffWatch> = {}): HandoffWatch => ({
  token: 'opaque-token',
  hospitalName: HOSPITAL,
  expiresAt: EXPIRES_AT,
  handoff: null,
  ...over,
});

beforeEach(() => {
  resetSessionForTests();
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  vi.setSystemTime(ISSUED_AT);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the closed case’s hand-over on Start', () => {
  it('keeps from the server’s answer only the token, the hospital and the expiry', () => {
    applyHandoffWatchIssued({ token: 'opaque-token', hospitalName: HOSPITAL, expiresAt: EXPIRES_AT });
    expect(useSession.getState().handoffWatch).toEqual(watch());
    // Something else (an older server's answer): nothing kept.
    resetSessionForTests();
    applyHandoffWatchIssued({ caseId: 'case-1', caseNumber: 'R-1042' });
    expect(useSession.getState().handoffWatch).toBeNull();
  });

  it('waits, asks with the token, then says who accepted the hand-over and when', async () => {
    const call = vi
      .spyOn(api, 'call')
      .mockResolvedValueOnce({ hospitalName: HOSPITAL, expiresAt: EXPIRES_AT, handoff: null } as never)
      .mockResolvedValueOnce({
        hospitalName: HOSPITAL,
        expiresAt: EXPIRES_AT,
        handoff: { byName: 'Taylor Brooks', at: ACCEPTED_AT },
      } as never);
    resetSessionForTests({ handoffWatch: watch() });
    render(<StartWithPolling />);
    expect(screen.getByTestId('closed-handoff-waiting').textContent).toBe(`Waiting for handoff at ${HOSPITAL}`);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(HANDOFF_POLL_MS);
    });
    expect(call).toHaveBeenCalledWith('handoffWatchStatus', { body: { token: 'opaque-token' } });
    expect(screen.getByTestId('closed-handoff-accepted').textContent).toMatch(
      new RegExp(`^✓ Handoff accepted by Taylor Brooks \\d\\d:\\d\\d · ${HOSPITAL}$`),
    );
    // Known: no more asking.
    const asked = call.mock.calls.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3 * HANDOFF_POLL_MS);
    });
    expect(call.mock.calls.length).toBe(asked);
  });

  it('goes at the expiry, and when the server no longer knows the token', async () => {
    vi.spyOn(api, 'call').mockRejectedValue(new ApiError('http', 404, 'Handoff watch not found.'));
    resetSessionForTests({ handoffWatch: watch() });
    render(<StartWithPolling />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(useSession.getState().handoffWatch).toBeNull();
    expect(screen.queryByTestId('closed-handoff-waiting')).toBeNull();

    cleanup();
    vi.spyOn(api, 'call').mockRejectedValue(new ApiError('noResponse'));
    resetSessionForTests({ handoffWatch: watch({ expiresAt: new Date(ISSUED_AT + 60_000).toISOString() }) });
    render(<StartWithPolling />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    // Offline: still waiting.
    expect(screen.getByTestId('closed-handoff-waiting')).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(31_000);
    });
    expect(useSession.getState().handoffWatch).toBeNull();
    expect(screen.queryByTestId('closed-handoff-waiting')).toBeNull();
  });

  it('is drawn from the session alone, before anything asks the server, and never once expired', () => {
    const call = vi.spyOn(api, 'call');
    resetSessionForTests({ handoffWatch: watch() });
    render(<ClosedHandoffStatus />);
    expect(screen.getByTestId('closed-handoff-waiting').textContent).toBe(`Waiting for handoff at ${HOSPITAL}`);
    expect(call).not.toHaveBeenCalled();

    cleanup();
    vi.setSystemTime(Date.parse(EXPIRES_AT));
    resetSessionForTests({ handoffWatch: watch() });
    render(<ClosedHandoffStatus />);
    expect(screen.queryByTestId('closed-handoff-waiting')).toBeNull();
    expect(useSession.getState().handoffWatch).toBeNull();
  });
});
