/**
 * What a crew does to a case, as the crew app does it: each change is built with the app's own
 * `caseMutations` and is valid for the case as the crew sees it (a tag of the chosen complaint, a swap
 * in a group as remove-then-add, values only for a selected data-enabled tag, a complaint or hospital
 * different from the current one). So every change must end up as exactly one case event, and each
 * carries the event the server is expected to record for it.
 */
import { AGE_MAX_BY_PERIOD, DATA_ENABLED_CATEGORY, type Complaint, type Tag } from '@inbound/contract';
import { caseMutations } from '../../apps/crew/src/lib/outbox/caseMutations';
import type { MutationInput } from '../../apps/crew/src/lib/outbox/types';
import { standardComplaints } from '../../apps/server/src/seed/complaint-sets.js';
import { demoAgencies, IDS, patientInfoForm } from '../../apps/server/src/seed/demo-data.js';

// medic1's team (Riverside EMS) and the set its cases get: the newest version of its complaint set.
const team = demoAgencies.find((agency) => agency.id === IDS.agencies.riverside)!;
export const TEAM_ID = team.id;
export const TRUCKS = team.trucks.map((truck) => truck.id);
export const HOSPITALS = team.hospitals;
export const COMPLAINTS: Complaint[] = standardComplaints;
const FORM_ID = patientInfoForm.id;
const FORM_FIELDS = patientInfoForm.fields.filter((f) => ['text', 'date', 'multiline_text'].includes(f.type));

export type ChangeKind =
  'complaint' | 'tag' | 'tagValues' | 'age' | 'gender' | 'hospital' | 'patientInfo' | 'location' | 'close';

/** A change the crew made: its idempotency key (given by the outbox) and the event it must become. */
export interface MadeChange {
  key: string;
  label: string;
  expect: { type: string; payload: Record<string, unknown> };
}

/** One case as the crew app sees it. `changes[0]` is always its create. */
export interface CrewCase {
  placeholderId: string;
  /** The server's id, once the app heard of it (`placeholder-resolved`, or `resolvePlaceholder` at start). */
  realId: string | null;
  truck: string;
  closed: boolean;
  complaint: string | null;
  /** Selected tags, of every complaint chosen so far (the server keeps an earlier complaint's tags). */
  tags: string[];
  hospital: string | null;
  gender: 'M' | 'F' | null;
  age: number | null;
  agePeriod: 1 | 2 | 3;
  patientInfo: { key: string; value: string }[];
  location: { latitude: number; longitude: number } | null;
  changes: MadeChange[];
}

/** What to enqueue, and the event it must become on the server. */
export interface PlannedChange {
  input: MutationInput;
  label: string;
  expect: MadeChange['expect'];
}

export function newCrewCase(
  placeholderId: string,
  truckPick: number,
  beganAt: string,
): {
  crewCase: CrewCase;
  create: PlannedChange;
} {
  const truck = TRUCKS[truckPick % TRUCKS.length]!;
  return {
    crewCase: {
      placeholderId,
      realId: null,
      truck,
      closed: false,
      complaint: null,
      tags: [],
      hospital: null,
      gender: null,
      age: null,
      agePeriod: 3,
      patientInfo: [],
      location: null,
      changes: [],
    },
    create: {
      input: caseMutations.createCase(placeholderId, { emsAgency: TEAM_ID, truck, beganAt }),
      label: `create ${placeholderId}`,
      expect: { type: 'caseStarted', payload: { placeholderId, truck, emsAgency: TEAM_ID } },
    },
  };
}

const tagsOf = (complaint: Complaint): Tag[] => complaint.sections.flatMap((section) => section.tags);
const complaintById = (id: string): Complaint => COMPLAINTS.find((c) => c.id === id)!;
const isDataEnabled = (tag: Tag): boolean => tag.category === DATA_ENABLED_CATEGORY && tag.data.length > 0;

/**
 * The crew's next change(s) for `kind`, applied to `crewCase` (the app's local state). A tag swap is
 * two changes, as the app sends it. `caseId` is the id the app writes under (a stale placeholder, too).
 */
export function planChanges(
  crewCase: CrewCase,
  caseId: string,
  kind: ChangeKind,
  pick: number,
  pick2: number,
  now: number,
): PlannedChange[] {
  // Tags need a complaint, and the app allows closing once a destination is chosen: do that first.
  if ((kind === 'tag' || kind === 'tagValues') && crewCase.complaint === null) kind = 'complaint';
  if (kind === 'close' && crewCase.hospital === null) kind = 'hospital';

  switch (kind) {
    case 'complaint': {
      const complaint = differentFrom(
        COMPLAINTS.map((c) => c.id),
        crewCase.complaint,
        pick,
      );
      crewCase.complaint = complaint;
      return [
        {
          input: caseMutations.patchCase(caseId, { complaint }),
          label: `complaint ${complaint}`,
          expect: { type: 'complaint', payload: { complaint } },
        },
      ];
    }
    case 'hospital': {
      const hospital = differentFrom(HOSPITALS, crewCase.hospital, pick);
      crewCase.hospital = hospital;
      return [
        {
          input: caseMutations.patchCase(caseId, { destinationHospital: hospital }),
          label: `hospital ${hospital}`,
          expect: { type: 'hospital', payload: { destinationHospital: hospital } },
        },
      ];
    }
    case 'gender': {
      const gender = (['M', 'F', null] as const)[pick % 3]!;
      crewCase.gender = gender;
      return [
        {
          input: caseMutations.patchCase(caseId, { gender }),
          label: `gender ${gender ?? 'cleared'}`,
          expect: { type: 'gender', payload: { gender } },
        },
      ];
    }
    case 'age': {
      if (pick % 10 === 0) {
        crewCase.age = null;
        return [
          {
            input: caseMutations.patchCase(caseId, { age: null }),
            label: 'age cleared',
            expect: { type: 'age', payload: { age: null } },
          },
        ];
      }
      const agePeriod = ([1, 2, 3] as const)[pick2 % 3]!;
      const age = 1 + (pick % AGE_MAX_BY_PERIOD[agePeriod]);
      crewCase.age = age;
      crewCase.agePeriod = agePeriod;
      return [
        {
          input: caseMutations.patchCase(caseId, { age, agePeriod }),
          label: `age ${age}/${agePeriod}`,
          expect: { type: 'age', payload: { age, agePeriod } },
        },
      ];
    }
    case 'location': {
      const location = { latitude: 40 + (pick % 1000) / 1000, longitude: -74 - (pick2 % 1000) / 1000 };
      crewCase.location = location;
      return [
        {
          input: caseMutations.location(caseId, location),
          label: `location ${location.latitude},${location.longitude}`,
          expect: { type: 'location', payload: location },
        },
      ];
    }
    case 'patientInfo': {
      // Some fields, one possibly left empty: the server drops empty ones (§5).
      const fields = FORM_FIELDS.filter((_, i) => ((pick >> i) & 1) === 1).map((field, i) => ({
        key: field.key,
        value:
          i === 1 && pick2 % 4 === 0
            ? ''
            : field.type === 'date'
              ? `19${40 + (pick2 % 60)}-0${1 + (pick % 9)}-1${pick2 % 10}`
              : `${field.key} ${pick2}`,
      }));
      const kept = fields.filter((f) => f.value !== '');
      crewCase.patientInfo = kept;
      return [
        {
          input: caseMutations.dynamicForm(caseId, FORM_ID, { fields }),
          label: `patient info ${kept.map((f) => f.key).join('+') || '(empty)'}`,
          expect: { type: 'patientInfo', payload: { formId: FORM_ID, fields: kept } },
        },
      ];
    }
    case 'close': {
      const arrivedAt = new Date(now).toISOString();
      crewCase.closed = true;
      return [
        {
          input: caseMutations.patchCase(caseId, { arrivedAt }),
          label: 'close (arrivedAt)',
          expect: { type: 'arrived', payload: { arrivedAt } },
        },
      ];
    }
    case 'tag': {
      const tags = tagsOf(complaintById(crewCase.complaint!));
      const tag = tags[pick % tags.length]!;
      if (crewCase.tags.includes(tag.id)) return [removeTag(crewCase, caseId, tag.id)];
      return selectTag(crewCase, caseId, tag);
    }
    case 'tagValues': {
      const dataTags = tagsOf(complaintById(crewCase.complaint!)).filter(isDataEnabled);
      if (dataTags.length === 0) return planChanges(crewCase, caseId, 'tag', pick, pick2, now);
      const tag = dataTags[pick % dataTags.length]!;
      const select = crewCase.tags.includes(tag.id) ? [] : selectTag(crewCase, caseId, tag);
      const fields = tag.data.map((field, i) => ({
        key: field.key,
        name: field.name,
        type: field.type,
        value:
          field.type === 'number'
            ? String((pick2 + i) % 250)
            : field.type === 'text'
              ? `value ${pick2 + i}`
              : field.type === 'date'
                ? `2026-11-${String(1 + ((pick2 + i) % 20)).padStart(2, '0')}`
                : new Date(now - (pick2 + i) * 60_000).toISOString(),
      }));
      return [
        ...select,
        {
          input: caseMutations.tagValues(caseId, tag.id, { fields }),
          label: `values of ${tag.id}`,
          expect: { type: 'dataEnabledTag', payload: { tagId: tag.id, fields } },
        },
      ];
    }
  }
}

/** The choice at `pick`, or the next one when that is the current value (the app sends no no-op). */
function differentFrom(choices: readonly string[], current: string | null, pick: number): string {
  const chosen = choices[pick % choices.length]!;
  return chosen === current ? choices[(pick + 1) % choices.length]! : chosen;
}

/** §4: a tag whose group already has a selected tag (of this complaint) swaps it out — remove, then add. */
function selectTag(crewCase: CrewCase, caseId: string, tag: Tag): PlannedChange[] {
  const complaint = complaintById(crewCase.complaint!);
  const rival = tag.groupIdentifier
    ? tagsOf(complaint).find((t) => t.groupIdentifier === tag.groupIdentifier && crewCase.tags.includes(t.id))
    : undefined;
  const swapOut = rival ? [removeTag(crewCase, caseId, rival.id)] : [];
  crewCase.tags.push(tag.id);
  return [
    ...swapOut,
    {
      input: caseMutations.addTag(caseId, tag.id),
      label: `add tag ${tag.id}`,
      expect: { type: 'tag', payload: { tagId: tag.id, action: 'added' } },
    },
  ];
}

function removeTag(crewCase: CrewCase, caseId: string, tagId: string): PlannedChange {
  crewCase.tags = crewCase.tags.filter((id) => id !== tagId);
  return {
    input: caseMutations.removeTag(caseId, tagId),
    label: `remove tag ${tagId}`,
    expect: { type: 'tag', payload: { tagId, action: 'removed' } },
  };
}
