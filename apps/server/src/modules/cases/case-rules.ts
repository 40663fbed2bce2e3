/**
 * The rules of spec §5 that need the case's reference data (its complaint set, its team's forms):
 * pure functions, so each is tested without a database. Each throws a 400 whose message names the
 * problem; the schema in the contract has already checked shapes and lengths.
 */
import {
  DATA_ENABLED_CATEGORY,
  type Complaint,
  type PatientInfoEntry,
  type PatientInfoField,
  type Tag,
  type TagFieldType,
  type TagFieldValue,
} from '@inbound/contract';
import { badRequest } from '../../errors.js';

export const TAG_TEXT_MAX_LENGTH = 1_000;
/** Patient info field types the crew app shows (§3); a form's other fields cannot be filled. */
export const PATIENT_INFO_TYPES = ['text', 'date', 'multiline_text'] as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function isDateTimeWithOffset(value: string): boolean {
  return DATETIME_WITH_OFFSET.test(value) && Number.isFinite(Date.parse(value)) && isCalendarDate(value.slice(0, 10));
}

export function isFiniteNumberText(value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed));
}

/** Why a value does not fit its field type, or null when it does. An empty value is a blank field. */
export function valueProblem(type: TagFieldType, value: string): string | null {
  if (value === '') return null;
  switch (type) {
    case 'number':
      return isFiniteNumberText(value) ? null : 'must be a number';
    case 'date':
      return isCalendarDate(value) ? null : 'must be a date YYYY-MM-DD';
    case 'datetime':
      return isDateTimeWithOffset(value) ? null : 'must be a full ISO-8601 date-time with a time zone';
    case 'text':
      return value.length <= TAG_TEXT_MAX_LENGTH ? null : `must be at most ${TAG_TEXT_MAX_LENGTH} characters`;
  }
}

/** A tag of the set: where it is, so the caller can check it against the case's complaint. */
export interface FoundTag {
  tag: Tag;
  complaint: Complaint;
}

export function findTag(complaints: ReadonlyMap<string, Complaint>, tagId: string): FoundTag | null {
  for (const complaint of complaints.values()) {
    for (const section of complaint.sections) {
      const tag = section.tags.find((t) => t.id === tagId);
      if (tag) return { tag, complaint };
    }
  }
  return null;
}

/** The tag, when it belongs to the case's chosen complaint of the case's set (§4: tags are per complaint). */
export function requireTagOfComplaint(
  complaints: ReadonlyMap<string, Complaint>,
  complaintId: string | null,
  tagId: string,
): FoundTag {
  const found = findTag(complaints, tagId);
  if (!found) throw badRequest(`Tag ${tagId} is not in the case's complaint set.`);
  if (complaintId === null) throw badRequest('Choose a complaint before selecting its tags.');
  if (found.complaint.id !== complaintId) {
    throw badRequest(
      `Tag ${tagId} belongs to complaint ${found.complaint.id}, not to the case's complaint ${complaintId}.`,
    );
  }
  return found;
}

export const isDataEnabled = (tag: Tag): boolean => tag.category === DATA_ENABLED_CATEGORY && tag.data.length > 0;

/**
 * Values for a data-enabled tag: every key one of the tag's fields, once, with its field's type and a
 * value of that type; at least one value non-empty. Names and types are the tag's own.
 */
export function checkTagValues(tag: Tag, fields: readonly TagFieldValue[]): TagFieldValue[] {
  if (!isDataEnabled(tag)) throw badRequest(`Tag ${tag.id} takes no values: it is not a data-enabled tag.`);
  const seen = new Set<string>();
  const checked = fields.map((field) => {
    const def = tag.data.find((d) => d.key === field.key);
    if (!def) {
      throw badRequest(
        `fields: ${field.key} is not a field of tag ${tag.id} (its fields: ${tag.data.map((d) => d.key).join(', ')}).`,
      );
    }
    if (seen.has(field.key)) throw badRequest(`fields: ${field.key} is given twice.`);
    seen.add(field.key);
    if (field.type !== def.type)
      throw badRequest(`fields.${field.key}: the field's type is ${def.type}, not ${field.type}.`);
    const problem = valueProblem(def.type, field.value);
    if (problem) throw badRequest(`fields.${field.key}: ${problem}.`);
    return { key: def.key, value: field.value, name: def.name, type: def.type };
  });
  if (checked.every((f) => f.value === '')) throw badRequest('fields: at least one value must be filled in.');
  return checked;
}

/**
 * Patient info against the team's form: keys must be the form's fields of a shown type, once each;
 * dates are YYYY-MM-DD; empty values are dropped (§5).
 */
export function checkPatientInfo(
  formFields: readonly PatientInfoField[],
  entries: readonly PatientInfoEntry[],
): PatientInfoEntry[] {
  const seen = new Set<string>();
  const kept: PatientInfoEntry[] = [];
  for (const entry of entries) {
    const def = formFields.find((f) => f.key === entry.key);
    if (!def) throw badRequest(`fields: ${entry.key} is not a field of the team's patient info form.`);
    if (!(PATIENT_INFO_TYPES as readonly string[]).includes(def.type)) {
      throw badRequest(`fields: ${entry.key} is a ${def.type} field, which is not filled in through this form.`);
    }
    if (seen.has(entry.key)) throw badRequest(`fields: ${entry.key} is given twice.`);
    seen.add(entry.key);
    if (def.type === 'date' && entry.value !== '' && !isCalendarDate(entry.value)) {
      throw badRequest(`fields.${entry.key}: must be a date YYYY-MM-DD.`);
    }
    if (entry.value.trim() !== '') kept.push({ key: entry.key, value: entry.value });
  }
  return kept;
}
