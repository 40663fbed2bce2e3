/**
 * Shift-end arithmetic (spec §4, §9), all in local time. Pure: every function takes `now`.
 * Stored as HH:mm:ss (`autoLogoutTime`) plus the full instant (`autoLogoutAt`), shown as hh:mm a.
 */
import { DEFAULT_SHIFT_HOURS } from '@inbound/contract';

const HOUR_MS = 3_600_000;

export interface ShiftEnd {
  /** HH:mm:ss, the spec's stored format. */
  time: string;
  /** ISO instant of the same moment: the date is known too. */
  at: string;
}

/** The default shift end: 8 hours from now, to the minute. */
export function defaultShiftEnd(now: Date): Date {
  const end = new Date(now.getTime() + DEFAULT_SHIFT_HOURS * HOUR_MS);
  end.setSeconds(0, 0);
  return end;
}

/** "HH:mm" or "HH:mm:ss" → the next moment with that clock time: today if still ahead, else tomorrow. */
export function nextOccurrence(clock: string, now: Date): Date | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(clock.trim());
  if (!match) return null;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const candidate = new Date(now);
  candidate.setHours(hours, minutes, seconds, 0);
  // A time not in the future rolls to the next day (spec §4).
  if (candidate.getTime() <= now.getTime()) candidate.setDate(candidate.getDate() + 1);
  return candidate;
}

export function toShiftEnd(date: Date): ShiftEnd {
  return { time: formatStoredTime(date), at: date.toISOString() };
}

/** HH:mm:ss */
export function formatStoredTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map(twoDigits).join(':');
}

/** HH:mm, the value of an `<input type="time">`. */
export function formatInputTime(date: Date): string {
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** hh:mm a, e.g. "05:30 PM". */
export function formatDisplayTime(date: Date): string {
  const hours = date.getHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${twoDigits(hour12)}:${twoDigits(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** When the stored shift end is due. A stored time without its instant is taken as its next occurrence. */
export function shiftEndInstant(
  stored: { autoLogoutTime: string | null; autoLogoutAt: string | null },
  now: Date,
): Date | null {
  if (stored.autoLogoutAt) {
    const at = new Date(stored.autoLogoutAt);
    if (!Number.isNaN(at.getTime())) return at;
  }
  return stored.autoLogoutTime ? nextOccurrence(stored.autoLogoutTime, now) : null;
}

export function isAutoLogoutDue(at: Date | null, now: Date): boolean {
  return at !== null && at.getTime() <= now.getTime();
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}
