/**
 * The complaints tab's rules as pure functions (spec §4 Tags, §5 Data-enabled tag, §9 colours).
 */
import {
  DEFAULT_TAG_COLOR,
  TEXT_BRIGHTNESS_THRESHOLD,
  type Complaint,
  type Tag,
  type TagField,
  type TagFieldValue,
} from '@inbound/contract';

/** Perceived brightness 0..255 of #RRGGBB (the W3C formula: (299 R + 587 G + 114 B) / 1000). */
export function brightness(hex: string): number {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return 255;
  const [r, g, b] = [match[1], match[2], match[3]].map((part) => parseInt(part ?? '0', 16)) as [number, number, number];
  return (r * 299 + g * 587 + b * 114) / 1000;
}

/** Spec §9: brightness of at least 128 gives black text, otherwise white. */
export function textColorFor(background: string): '#000000' | '#FFFFFF' {
  return brightness(background) >= TEXT_BRIGHTNESS_THRESHOLD ? '#000000' : '#FFFFFF';
}

/** A selected tag takes the complaint's colour (default #AAAAAA); an unselected one is white. */
export function tagBackground(complaint: Pick<Complaint, 'color'> | null, selected: boolean): string {
  if (!selected) return '#FFFFFF';
  return complaint?.color || DEFAULT_TAG_COLOR;
}

export type TagChange = { op: 'add' | 'remove'; tagId: string };

/**
 * Spec §4 Tags: tapping a selected tag removes it; tapping an unselected tag whose group already has
 * another selected tag swaps them (remove the old one first, then add the new one); otherwise adds it.
 * `groupTags` are the tags that can share a group with `tag` (the complaint's).
 */
export function tagChanges(selectedIds: ReadonlySet<string>, tag: Tag, groupTags: readonly Tag[]): TagChange[] {
  if (selectedIds.has(tag.id)) return [{ op: 'remove', tagId: tag.id }];
  return addTagChanges(selectedIds, tag, groupTags);
}

/** Adding a tag: first remove whatever else of its group is selected. */
export function addTagChanges(selectedIds: ReadonlySet<string>, tag: Tag, groupTags: readonly Tag[]): TagChange[] {
  if (selectedIds.has(tag.id)) return [];
  const swappedOut =
    tag.groupIdentifier === null
      ? []
      : groupTags.filter(
          (other) => other.id !== tag.id && other.groupIdentifier === tag.groupIdentifier && selectedIds.has(other.id),
        );
  return [...swappedOut.map((other) => ({ op: 'remove' as const, tagId: other.id })), { op: 'add', tagId: tag.id }];
}

export function complaintTags(complaint: Complaint): Tag[] {
  return complaint.sections.flatMap((section) => section.tags);
}

/** A date as `YYYY-MM-DDTHH:mm:ss.SSS±HH:mm` in the device's time zone (the spec's "full time-zone format"). */
export function toZonedIsoString(date: Date): string {
  const pad = (value: number, length = 2) => String(Math.abs(value)).padStart(length, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}

/** What the datetime input shows (`YYYY-MM-DDTHH:mm`, local time). */
export function toDateTimeLocalValue(date: Date): string {
  return toZonedIsoString(date).slice(0, 16);
}

export interface TagFieldDraft {
  value: string;
  /** Set once the crew has typed, picked or tapped Now: a datetime is sent only then (spec §5). */
  edited: boolean;
}

/**
 * Spec §5 Data-enabled tag: the fields to send. Blank fields are left out, a datetime only after an edit
 * and then in full time-zone form. ADD is disabled while this is empty.
 */
export function tagFieldsToSubmit(
  definitions: readonly TagField[],
  drafts: Readonly<Record<string, TagFieldDraft>>,
): TagFieldValue[] {
  return definitions.flatMap((field): TagFieldValue[] => {
    const draft = drafts[field.key];
    const value = draft?.value.trim() ?? '';
    if (value === '') return [];
    if (field.type === 'datetime') {
      if (!draft?.edited) return [];
      const parsed = new Date(value);
      if (Number.isNaN(parsed.getTime())) return [];
      return [{ key: field.key, name: field.name, type: field.type, value: toZonedIsoString(parsed) }];
    }
    return [{ key: field.key, name: field.name, type: field.type, value }];
  });
}
