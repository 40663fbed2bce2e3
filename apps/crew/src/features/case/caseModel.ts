/**
 * The case's rules as pure functions (spec §4, §5, §9), so each can be tested on its own: the placeholder
 * case, age validation, patient-info filtering, close-ability and auto-close timing.
 */
import {
  AGE_MAX_BY_PERIOD,
  AGE_MIN,
  FEATURE,
  PLACEHOLDER_CASE_NUMBER,
  PLACEHOLDER_ID_PREFIX,
  type AgePeriodCode,
  type Hospital,
  type PatientInfoEntry,
  type PatientInfoField,
  type Team,
  type Truck,
} from '@inbound/contract';
import type { StoredCase } from '../../lib/session';

/** Spec §4: the case as it exists on this device before the server has answered the create. */
export function newPlaceholderCase(team: Team, truck: Truck, now: number): StoredCase {
  return {
    id: `${PLACEHOLDER_ID_PREFIX}${now}`,
    caseNumber: PLACEHOLDER_CASE_NUMBER,
    channelId: null,
    ownedBy: null,
    type: 'emsED',
    createdAt: new Date(now).toISOString(),
    emsAgency: team.id,
    truck: truck.id,
    complaintSet: team.complaintSet,
    complaint: null,
    destinationHospital: null,
    tags: [],
    age: null,
    agePeriod: 3,
    gender: null,
    patientInfo: [],
  };
}

export const AGE_PERIOD_LABELS: Record<AgePeriodCode, string> = { 3: 'Years', 2: 'Months', 1: 'Weeks' };

export type AgeInput = { kind: 'empty' } | { kind: 'valid'; age: number } | { kind: 'invalid'; message: string };

/** Spec §5 Age: an integer from 1 to the period's maximum; an empty value does nothing. */
export function validateAge(text: string, period: AgePeriodCode): AgeInput {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const max = AGE_MAX_BY_PERIOD[period];
  const age = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isInteger(age) || age < AGE_MIN || age > max) {
    return { kind: 'invalid', message: `From ${AGE_MIN} to ${max}` };
  }
  return { kind: 'valid', age };
}

/** The patient info form shows only these field types (spec §3); others are ignored. */
export const PATIENT_INFO_FIELD_TYPES = ['text', 'date', 'multiline_text'] as const;

export function shownPatientInfoFields(fields: readonly PatientInfoField[]): PatientInfoField[] {
  return fields.filter((field) => (PATIENT_INFO_FIELD_TYPES as readonly string[]).includes(field.type));
}

/** Spec §5 Patient info: empty fields are dropped on submit; only the form's shown fields are sent. */
export function patientInfoToSubmit(
  fields: readonly PatientInfoField[],
  values: Readonly<Record<string, string>>,
): PatientInfoEntry[] {
  return shownPatientInfoFields(fields).flatMap((field) => {
    const value = values[field.key]?.trim() ?? '';
    return value === '' ? [] : [{ key: field.key, value }];
  });
}

export function patientInfoValue(patientInfo: readonly PatientInfoEntry[], key: string): string {
  return patientInfo.find((entry) => entry.key === key)?.value ?? '';
}

/** The patient fields a hospital with caseRequiresPtNameAndDOB needs, with the names §5 shows. */
export const REQUIRED_PATIENT_FIELDS = [
  { key: 'firstName', label: 'First Name' },
  { key: 'lastName', label: 'Last Name' },
  { key: 'dateOfBirth', label: 'DOB' },
] as const;

export function hospitalHasFeature(hospital: Hospital | null | undefined, feature: string): boolean {
  return hospital?.supportedFeatures.some((item) => item.name === feature && item.enabled) ?? false;
}

export function destinationOf(caseData: StoredCase, team: Team | null): Hospital | null {
  const id = caseData.destinationHospital?.id;
  return (id && team?.hospitals.find((hospital) => hospital.id === id)) || null;
}

export type Closability = { closable: true } | { closable: false; reason: 'noHospital' } | PatientFieldsMissing;
interface PatientFieldsMissing {
  closable: false;
  reason: 'patientInfo';
  /** The labels of the missing fields, in the spec's order. */
  missing: string[];
}

/**
 * Spec §4: a case closes only once a hospital is chosen (when the team has hospitals) and, for a
 * destination that requires them, with the patient's first name, last name and DOB filled in. (No call
 * can be in progress yet: calls arrive with their issue.)
 */
export function isCaseClosable(caseData: StoredCase, team: Team | null): Closability {
  const hasHospitals = (team?.hospitals.length ?? 0) > 0;
  if (hasHospitals && !caseData.destinationHospital) return { closable: false, reason: 'noHospital' };
  const destination = destinationOf(caseData, team);
  if (hospitalHasFeature(destination, FEATURE.caseRequiresPtNameAndDOB)) {
    const missing = REQUIRED_PATIENT_FIELDS.filter(
      (field) => patientInfoValue(caseData.patientInfo, field.key).trim() === '',
    ).map((field) => field.label);
    if (missing.length > 0) return { closable: false, reason: 'patientInfo', missing };
  }
  return { closable: true };
}

/** Spec §4: milliseconds until the case closes by itself (0 when already past maxCaseLength minutes). */
export function autoCloseDelayMs(createdAt: string, maxCaseLengthMinutes: number, now: number): number {
  const deadline = Date.parse(createdAt) + maxCaseLengthMinutes * 60_000;
  return Math.max(0, deadline - now);
}

/** "Patient: First Last" and "DOB: …" when any patient info exists (spec §2). */
export function patientSummary(patientInfo: readonly PatientInfoEntry[]): { name: string; dob: string } | null {
  if (patientInfo.length === 0) return null;
  const name = [patientInfoValue(patientInfo, 'firstName'), patientInfoValue(patientInfo, 'lastName')]
    .filter((part) => part !== '')
    .join(' ');
  return { name, dob: patientInfoValue(patientInfo, 'dateOfBirth') };
}

/**
 * Spec §4 Case feedback: asked only when the crew member has not turned on Do Not Disturb and the
 * destination takes case feedback. A hospital not on the platform is never asked for anything.
 */
export function shouldAskCaseFeedback(destination: Hospital | null, doNotDisturb: boolean): boolean {
  if (!destination || destination.nonTwiage || doNotDisturb) return false;
  return hospitalHasFeature(destination, FEATURE.emsFeedback);
}
