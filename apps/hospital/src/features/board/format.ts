import type { BoardCase, TagFieldValue } from '@inbound/contract';

const PERIOD_UNITS: Record<1 | 2 | 3, string> = { 1: 'wk', 2: 'mo', 3: 'y' };

export function formatAge(card: Pick<BoardCase, 'age' | 'agePeriod'>): string | null {
  return card.age === null ? null : `${card.age} ${PERIOD_UNITS[card.agePeriod]}`;
}

export function formatGender(gender: BoardCase['gender']): string | null {
  return gender === 'M' ? 'Male' : gender === 'F' ? 'Female' : null;
}

/** "hh:mm" in the screen's time zone, 24-hour: how EDs and crews say times. */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** "42 s", "7 min", "1 h 05 min". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A tag field's value as staff read it: date-times as hh:mm with how long ago, numbers as given. */
export function formatFieldValue(field: TagFieldValue, now: number): string {
  if (field.type === 'datetime') {
    // The crew's "Unknown" choice saves an empty time.
    if (field.value === '') return 'unknown';
    const at = Date.parse(field.value);
    if (Number.isNaN(at)) return field.value;
    return `${formatClock(field.value)} (${formatElapsed(now - at)} ago)`;
  }
  if (field.type === 'date') {
    const at = Date.parse(field.value);
    return Number.isNaN(at) ? field.value : new Date(at).toLocaleDateString();
  }
  return field.value;
}

export function formatDistance(km: number): string {
  return km < 10 ? `${km.toFixed(1)} km` : `${Math.round(km)} km`;
}
