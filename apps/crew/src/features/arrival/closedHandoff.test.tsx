import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { CaseChannelMessage, CaseEvent, CaseUpdated } from '@inbound/contract';
import { resetSessionForTests, useSession, type HandoffWatch } from '../../lib/session';
import {
  applyHandoffFromCase,
  applyHandoffMessage,
  HANDOFF_WATCH_MS,
  isWatchOver,
  startHandoffWatch,
} from './closedHandoff';
import { ClosedHandoffStatus } from './ClosedHandoffStatus';

// The channel itself is the shared realtime client's (tested there); here, what Start makes of it.
vi.mock('./closedHandoff', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./closedHandoff')>()),
  useHandoffWatchChannel: (): void => undefined,
}));

const CLOSED_AT = '2026-11-27T10:00:00.000Z';
const ARRIVED_AT = '2026-11-27T09:58:00.000Z';
const ACCEPTED_AT = '2026-11-27T10:20:00.000Z';

const watch = (over: Partial<HandoffWatch> = {}): HandoffWatch => ({
  caseId: 'case-1',
  caseNumber: 'R-1042',
  hospitalName: 'Riverside Regional Medical Center',
  closedAt: CLOSED_AT,
  arrivalAt: null,
  handoffAt: null,
  handoffByName: null,
  ...over,
});

function message(caseId: string, event: CaseEvent): CaseChannelMessage {
  const data: CaseUpdated = {
    caseId,
    event: { id: 'e-1', caseId, seq: 1, createdAt: ACCEPTED_AT, clientCreatedAt: null, actorUserId: 'u-ed1', ...event },
  };
  return { type: 'case.updated', data };
}

const held = () => useSession.getState().handoffWatch;

beforeEach(() => resetSessionForTests());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the just-closed case’s hand-over, kept without patient data', () => {
  it('starts from what the case screen knew, and keeps only number, hospital, times and who', () => {
    const started = startHandoffWatch({ id: 'case-1', caseNumber: 'R-1042' }, 'Riverside', CLOSED_AT, {
      arrival: { at: ARRIVED_AT, source: 'geofence', byName: null },
      handoff: null,
      diversion: null,
    });
    expect(started).toEqual({
      caseId: 'case-1',
      caseNumber: 'R-1042',
      hospitalName: 'Riverside',
      closedAt: CLOSED_AT,
      arrivalAt: ARRIVED_AT,
      handoffAt: null,
      handoffByName: null,
    });
  });

  it('learns the arrival and the hand-over from the channel, and nothing of another case', () => {
    resetSessionForTests({ handoffWatch: watch() });
    applyHandoffMessage(
      'case-1',
      message('case-1', {
        type: 'arrivedAtDestination',
        payload: { hospitalId: 'h1', at: ARRIVED_AT, source: 'crew', byName: 'Sam Rivera' },
      }),
    );
    expect(held()).toMatchObject({ arrivalAt: ARRIVED_AT, handoffAt: null });
    applyHandoffMessage(
      'case-2',
      message('case-2', { type: 'handoffAccepted', payload: { hospitalId: 'h1', byName: 'Someone', at: ACCEPTED_AT } }),
    );
    expect(held()?.handoffAt).toBeNull();
    applyHandoffMessage(
      'case-1',
      message('case-1', {
        type: 'handoffAccepted',
        payload: { hospitalId: 'h1', byName: 'Taylor Brooks', at: ACCEPTED_AT },
      }),
    );
    expect(held()).toMatchObject({ handoffAt: ACCEPTED_AT, handoffByName: 'Taylor Brooks' });
  });

  it('takes the arrival and hand-over from a case read, and never clears what it knew', () => {
    resetSessionForTests({ handoffWatch: watch({ arrivalAt: ARRIVED_AT }) });
    applyHandoffFromCase('case-1', { arrival: null, handoff: null });
    expect(held()?.arrivalAt).toBe(ARRIVED_AT);
    applyHandoffFromCase('case-1', {
      arrival: { at: ARRIVED_AT, source: 'crew', byName: null },
      handoff: { at: ACCEPTED_AT, byName: 'Taylor Brooks' },
    });
    expect(held()).toMatchObject({ handoffAt: ACCEPTED_AT, handoffByName: 'Taylor Brooks' });
    // Only the watch's own fields: no patient data comes into the session from the case read.
    expect(Object.keys(held()!).sort()).toEqual(Object.keys(watch()).sort());
  });

  it('ends 2 h after the close', () => {
    const w = watch();
    expect(isWatchOver(w, Date.parse(CLOSED_AT) + HANDOFF_WATCH_MS - 1)).toBe(false);
    expect(isWatchOver(w, Date.parse(CLOSED_AT) + HANDOFF_WATCH_MS)).toBe(true);
  });
});

describe('Start’s line for the closed case', () => {
  it('runs the offload timer from the arrival, then says who accepted the hand-over and when', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(Date.parse(ARRIVED_AT) + 5 * 60_000 + 7_000);
    resetSessionForTests({ handoffWatch: watch({ arrivalAt: ARRIVED_AT }) });
    render(<ClosedHandoffStatus />);
    expect(screen.getByText('Case R-1042 · Riverside Regional Medical Center')).toBeTruthy();
    const timer = screen.getByTestId('closed-offload-timer');
    expect(timer.textContent).toMatch(/waiting for handoff5:07$/);
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('closed-offload-timer').textContent).toMatch(/6:07$/);
    act(() => {
      useSession.setState({
        handoffWatch: watch({ arrivalAt: ARRIVED_AT, handoffAt: ACCEPTED_AT, handoffByName: 'Taylor Brooks' }),
      });
    });
    expect(screen.queryByTestId('closed-offload-timer')).toBeNull();
    expect(screen.getByTestId('closed-handoff-accepted').textContent).toMatch(
      /^✓ Handoff accepted by Taylor Brooks \d\d:\d\d$/,
    );
  });

  it('goes, and forgets the case, 2 h after the close', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(Date.parse(CLOSED_AT) + HANDOFF_WATCH_MS - 1_500);
    resetSessionForTests({ handoffWatch: watch() });
    render(<ClosedHandoffStatus />);
    expect(screen.getByTestId('closed-offload-timer').textContent).toMatch(/^Closed \d\d:\d\d · waiting for handoff$/);
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(screen.queryByTestId('closed-offload-timer')).toBeNull();
    expect(held()).toBeNull();
  });
});
