import type { Clock } from '../clock.js';

/** A clock tests move by hand: token expiry and rate-limit windows without waiting. */
export function createTestClock(start = new Date('2026-11-21T12:00:00.000Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
    set(date: Date) {
      current = date.getTime();
    },
  } satisfies Clock & Record<string, unknown>;
}
export type TestClock = ReturnType<typeof createTestClock>;
