/**
 * What a data-enabled tag's saved value reads as on its button and in its history (issue 16): a time as
 * the crew's local clock and how long ago ("13:05, 42 min ago"), a number with its unit, never the raw
 * ISO text the server keeps. And the one-tap times a crew offers for a time tag (Now, −15 min, …).
 */
import type { CaseTag, Tag, TagField, TagFieldValue } from '@inbound/contract';
import { toZonedIsoString } from './tagRules';

/** An empty datetime value is what the "Unknown" choice saves: the crew said the time is not known. */
export const UNKNOWN_TIME_TEXT = 'unknown';

export interface TimeChoice {
  label: string;
  /** Minutes before now; null for Unknown. */
  minutesAgo: number | null;
}

export const TIME_CHOICES: readonly TimeChoice[] = [
  { label: 'Now', minutesAgo: 0 },
  { label: '−15 min', minutesAgo: 15 },
  { label: '−30 min', minutesAgo: 30 },
  // A no-break space: on a narrow phone "−15 min" may take two lines, but an "h" alone under "−1" reads badly.
  { label: '−1\u00a0h', minutesAgo: 60 },
  { label: 'Unknown', minutesAgo: null },
];

/** The value a time choice saves: the instant in full time-zone form (spec §5), or '' for Unknown. */
export function timeChoiceValue(field: TagField, choice: TimeChoice, now: Date): TagFieldValue {
  const value =
    choice.minutesAgo === null ? '' : toZonedIsoString(new Date(now.getTime() - choice.minutesAgo * 60_000));
  return { key: field.key, name: field.name, type: field.type, value };
}

/** A tag with exactly one field, a datetime: the kind the one-tap times are for (last known well, onset). */
export function isTimeTag(tag: Tag): boolean {
  return tag.data.length === 1 && tag.data[0]!.type === 'datetime';
}

/** `HH:mm` on the device's clock. */
export function clockTime(date: Date): string {
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** "just now", "42 min ago", "2 h 5 min ago", or "in 10 min" for a time ahead of the clock. */
export function timeAgo(date: Date, now: Date): string {
  const minutes = Math.round((now.getTime() - date.getTime()) / 60_000);
  if (minutes < 0) return `in ${-minutes} min`;
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h ago` : `${hours} h ${rest} min ago`;
}

/** One saved field as a person reads it. Dates stay as they are (a calendar day has no time zone). */
export function formatFieldValue(field: Pick<TagFieldValue, 'type' | 'value'>, now: Date, unit?: string): string {
  if (field.type === 'datetime') {
    if (field.value === '') return UNKNOWN_TIME_TEXT;
    const date = new Date(field.value);
    if (Number.isNaN(date.getTime())) return field.value;
    return `${clockTime(date)}, ${timeAgo(date, now)}`;
  }
  if (field.type === 'number' && unit) return `${field.value} ${unit}`;
  return field.value;
}

/** The latest saved value of a selected data-enabled tag, as its button shows it; null when none. */
export function describeTagValue(tag: Tag, caseTag: CaseTag | null | undefined, now: Date): string | null {
  const latest = caseTag?.values.at(-1);
  if (!latest || latest.fields.length === 0) return null;
  const units = new Map(tag.data.map((field) => [field.key, field.unit]));
  if (latest.fields.length === 1) return formatFieldValue(latest.fields[0]!, now, units.get(latest.fields[0]!.key));
  return latest.fields.map((field) => `${field.name} ${formatFieldValue(field, now, units.get(field.key))}`).join(', ');
}
