import { describe, expect, it } from 'vitest';
import {
  defaultShiftEnd,
  formatDisplayTime,
  formatInputTime,
  formatStoredTime,
  isAutoLogoutDue,
  nextOccurrence,
  shiftEndInstant,
  toShiftEnd,
} from './shiftTime';

// Local times: the arithmetic is in the device's time zone, as the crew sees the clock.
const at = (day: number, hours: number, minutes = 0, seconds = 0) => new Date(2026, 10, day, hours, minutes, seconds);

describe('shift end arithmetic (spec §4, §9)', () => {
  it('defaults to 8 hours from now, to the minute', () => {
    expect(defaultShiftEnd(at(21, 9, 15, 42))).toEqual(at(21, 17, 15));
    expect(defaultShiftEnd(at(21, 20, 30))).toEqual(at(22, 4, 30));
  });

  it.each([
    ['a later time today stays today', '17:00', at(21, 9), at(21, 17)],
    ['an earlier time rolls to tomorrow', '07:00', at(21, 9), at(22, 7)],
    ['the current minute is not in the future: tomorrow', '09:00', at(21, 9), at(22, 9)],
    ['one minute ahead stays today', '09:01', at(21, 9), at(21, 9, 1)],
    ['seconds are understood', '23:59:30', at(21, 23, 59), at(21, 23, 59, 30)],
    ['midnight after an evening shift', '00:00', at(21, 22), at(22, 0)],
    ['rolls across the month end', '06:00', at(30, 23), new Date(2026, 11, 1, 6)],
  ])('%s', (_case, clock, now, expected) => {
    expect(nextOccurrence(clock, now)).toEqual(expected);
  });

  it.each(['', '7', '24:00', '12:60', 'noon', '12:00:99'])('rejects %j', (clock) => {
    expect(nextOccurrence(clock, at(21, 9))).toBeNull();
  });

  it('formats as stored (HH:mm:ss), in the time input (HH:mm) and on screen (hh:mm a)', () => {
    const date = at(21, 17, 5, 9);
    expect(formatStoredTime(date)).toBe('17:05:09');
    expect(formatInputTime(date)).toBe('17:05');
    expect(formatDisplayTime(date)).toBe('05:05 PM');
    expect(formatDisplayTime(at(21, 0, 30))).toBe('12:30 AM');
    expect(formatDisplayTime(at(21, 12, 0))).toBe('12:00 PM');
    expect(formatDisplayTime(at(21, 9, 7))).toBe('09:07 AM');
  });

  it('keeps the date with the time', () => {
    const end = toShiftEnd(at(22, 7));
    expect(end.time).toBe('07:00:00');
    expect(new Date(end.at)).toEqual(at(22, 7));
    expect(shiftEndInstant({ autoLogoutTime: end.time, autoLogoutAt: end.at }, at(21, 23))).toEqual(at(22, 7));
  });

  it('reads a bare stored time as its next occurrence', () => {
    expect(shiftEndInstant({ autoLogoutTime: '07:00:00', autoLogoutAt: null }, at(21, 9))).toEqual(at(22, 7));
    expect(shiftEndInstant({ autoLogoutTime: null, autoLogoutAt: null }, at(21, 9))).toBeNull();
  });

  it('is due at and after the shift end, not before', () => {
    expect(isAutoLogoutDue(at(21, 17), at(21, 16, 59, 59))).toBe(false);
    expect(isAutoLogoutDue(at(21, 17), at(21, 17))).toBe(true);
    expect(isAutoLogoutDue(at(21, 17), at(22, 1))).toBe(true);
    expect(isAutoLogoutDue(null, at(21, 17))).toBe(false);
  });
});
