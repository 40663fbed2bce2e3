/**
 * Organisation administration of the catalogue crews work from (issue 5 item 8): agencies with their
 * hospitals, trucks, monitors, EMT levels and patient info form; hospitals with their features, ED
 * phone numbers and location; complaint sets, imported and exported as JSON. Organisation admins only.
 *
 * What crews read is unchanged in shape: an agency edit shows up in GET /v4/emsAgencies/{id}, a
 * hospital edit in the team's hospital list, an imported set as the newest version of
 * GET /v4/complaintSets. The complaint-set file is validated by `ComplaintSetImport`, built on the
 * very `Complaint` schema the crew app parses, and its problems are named entry by entry
 * (`complaints[3].sections[1].tags[0].id: duplicate id "t-lkw"`).
 */
import { z } from 'zod';
import { HospitalCapabilities } from './hospital-capabilities.js';
import type { RouteDef } from './api.js';
import { FEATURE, NAME_MAX_LENGTH } from './constants.js';
import {
  Complaint,
  DATA_ENABLED_CATEGORY,
  EdPhoneNumber,
  Feature,
  GeoPoint,
  Id,
  PatientInfoField,
} from './entities.js';

// ---- shared pieces ---------------------------------------------------------------------------------

const Name = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(NAME_MAX_LENGTH, `${what} is at most ${NAME_MAX_LENGTH} characters`);

/** Names within one list must differ (compared without case and surrounding spaces). */
function uniqueBy<T>(
  items: readonly T[],
  key: (item: T) => string,
  what: string,
  ctx: z.RefinementCtx,
  path: (index: number) => (string | number)[],
) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const value = key(item).trim().toLowerCase();
    if (seen.has(value))
      ctx.addIssue({ code: 'custom', message: `duplicate ${what} "${key(item)}"`, path: path(index) });
    seen.add(value);
  });
}

export const AdminIdParams = z.object({ id: Id });
export const AdminTruckParams = z.object({ id: Id, truckId: Id });

// ---- agencies --------------------------------------------------------------------------------------

/** Minutes after which an open case closes by itself (spec §4): from a quarter hour to a day. */
export const MAX_CASE_LENGTH_MIN = 15;
export const MAX_CASE_LENGTH_MAX = 1440;
export const AGENCY_HOSPITALS_MAX = 100;
export const AGENCY_LIST_MAX = 50;
/** Field types the crew app shows on the patient info form (§3); other types are stored but ignored there. */
export const PATIENT_INFO_FIELD_TYPES = ['text', 'date', 'multiline_text'] as const;

export const AdminMonitorInput = z.object({
  /** An existing monitor's id keeps it (cases refer to it); absent for a new monitor. */
  id: Id.optional(),
  name: Name('name'),
  type: Name('type'),
});
export const AdminMonitor = z.object({ id: Id, name: z.string(), type: z.string() });
export type AdminMonitor = z.infer<typeof AdminMonitor>;

export const AdminPatientInfoField = PatientInfoField.extend({
  key: z
    .string({ error: 'key is required' })
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'key must start with a letter and hold only letters, digits and _'),
  name: Name('name'),
  type: z
    .string({ error: 'type is required' })
    .trim()
    .regex(/^[a-z][a-z_]{0,31}$/, 'type must be a lower-case word such as text, date or multiline_text'),
});

export const AdminPatientInfoFormInput = z
  .object({
    title: Name('title'),
    subtitle: z.string().trim().max(500, 'subtitle is at most 500 characters'),
    fields: z.array(AdminPatientInfoField).max(AGENCY_LIST_MAX),
  })
  .superRefine((form, ctx) =>
    uniqueBy(
      form.fields,
      (f) => f.key,
      'key',
      ctx,
      (i) => ['fields', i, 'key'],
    ),
  );

const AgencyFields = {
  name: Name('name'),
  /** The complaint set's name; a set of that name must exist. */
  complaintSet: Name('complaintSet'),
  maxCaseLength: z
    .number({ error: 'maxCaseLength must be a number of minutes' })
    .int('maxCaseLength must be whole minutes')
    .min(MAX_CASE_LENGTH_MIN, `maxCaseLength must be at least ${MAX_CASE_LENGTH_MIN} minutes`)
    .max(MAX_CASE_LENGTH_MAX, `maxCaseLength must be at most ${MAX_CASE_LENGTH_MAX} minutes (a day)`),
  /** The hospitals crews of the agency choose from, in the order they see them. */
  hospitalIds: z
    .array(Id)
    .max(AGENCY_HOSPITALS_MAX)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, index) => {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `hospital "${id}" is listed twice`, path: [index] });
        seen.add(id);
      });
    }),
  monitors: z
    .array(AdminMonitorInput)
    .max(AGENCY_LIST_MAX)
    .superRefine((list, ctx) =>
      uniqueBy(
        list,
        (m) => m.name,
        'monitor name',
        ctx,
        (i) => [i, 'name'],
      ),
    ),
  emtLevels: z
    .array(z.object({ name: Name('name') }))
    .max(AGENCY_LIST_MAX)
    .superRefine((list, ctx) =>
      uniqueBy(
        list,
        (l) => l.name,
        'EMT level',
        ctx,
        (i) => [i, 'name'],
      ),
    ),
  /** null: the agency has no patient info form. */
  patientInfoForm: AdminPatientInfoFormInput.nullable(),
};

export const AdminCreateAgencyBody = z.object(AgencyFields);
export type AdminCreateAgencyBody = z.infer<typeof AdminCreateAgencyBody>;

/** Any subset of the fields; what is absent stays as it is. */
export const AdminUpdateAgencyBody = z
  .object(AgencyFields)
  .partial()
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'the body must change at least one field');
export type AdminUpdateAgencyBody = z.infer<typeof AdminUpdateAgencyBody>;

export const AdminTruck = z.object({ id: Id, name: z.string(), isALS: z.boolean() });
export type AdminTruck = z.infer<typeof AdminTruck>;

export const AdminAgency = z.object({
  id: Id,
  name: z.string(),
  complaintSet: z.string(),
  maxCaseLength: z.number().int(),
  hospitalIds: z.array(Id),
  monitors: z.array(AdminMonitor),
  emtLevels: z.array(z.object({ name: z.string() })),
  patientInfoForm: z
    .object({ id: Id, title: z.string(), subtitle: z.string(), fields: z.array(PatientInfoField) })
    .nullable(),
  trucks: z.array(AdminTruck),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type AdminAgency = z.infer<typeof AdminAgency>;

export const AdminAgencySummary = z.object({
  id: Id,
  name: z.string(),
  complaintSet: z.string(),
  maxCaseLength: z.number().int(),
  hospitalCount: z.number().int(),
  truckCount: z.number().int(),
  updatedAt: z.iso.datetime(),
});
export type AdminAgencySummary = z.infer<typeof AdminAgencySummary>;
export const AdminAgenciesResponse = z.object({ agencies: z.array(AdminAgencySummary) });
export type AdminAgenciesResponse = z.infer<typeof AdminAgenciesResponse>;

export const AdminTruckBody = z.object({
  name: Name('name'),
  isALS: z.boolean({ error: 'isALS must be true or false' }),
});
export type AdminTruckBody = z.infer<typeof AdminTruckBody>;
export const AdminUpdateTruckBody = AdminTruckBody.partial().refine(
  (body) => body.name !== undefined || body.isALS !== undefined,
  'the body must change name or isALS',
);
export type AdminUpdateTruckBody = z.infer<typeof AdminUpdateTruckBody>;

/**
 * Removing a truck: one never used is deleted; one used by closed cases is retired (those cases keep
 * naming it, crews no longer see it); one on an open case is refused with 409.
 */
export const AdminRemoveTruckResponse = z.object({ id: Id, outcome: z.enum(['deleted', 'retired']) });
export type AdminRemoveTruckResponse = z.infer<typeof AdminRemoveTruckResponse>;

// ---- hospitals -------------------------------------------------------------------------------------

/** The hospital features of spec §3, in the order the console lists them. */
export const HOSPITAL_FEATURES = [
  FEATURE.liveConsult,
  FEATURE.emsFeedback,
  FEATURE.caseRequiresPtNameAndDOB,
  FEATURE.showAiProtocolFeedback,
  FEATURE.aiProtocolHideSummary,
  FEATURE.allowsToRecord,
] as const;
export const HospitalFeatureName = z.enum(HOSPITAL_FEATURES, {
  error: `a feature is one of ${HOSPITAL_FEATURES.join(', ')}`,
});
export type HospitalFeatureName = z.infer<typeof HospitalFeatureName>;

/** Digits with the usual separators, 7 to 15 digits (E.164's limit), an optional leading +. */
export const PHONE_NUMBER_PATTERN = /^\+?[0-9][0-9 ().-]*[0-9]$/;
export const PhoneNumber = z
  .string({ error: 'phoneNumber is required' })
  .trim()
  .refine(
    (value) => PHONE_NUMBER_PATTERN.test(value) && /^(\D*\d){7,15}\D*$/.test(value),
    'phoneNumber must be a phone number such as +1-555-0100 (7 to 15 digits)',
  );

export const AdminEdPhoneNumber = z.object({ name: Name('name'), phoneNumber: PhoneNumber });

const HospitalFields = {
  name: Name('name'),
  /** Not on the platform: crews see it and can phone its ED, but no case data is sent (§6). */
  nonTwiage: z.boolean({ error: 'nonTwiage must be true or false' }),
  edPhoneNumbers: z
    .array(AdminEdPhoneNumber)
    .max(20)
    .superRefine((list, ctx) =>
      uniqueBy(
        list,
        (p) => p.name,
        'phone name',
        ctx,
        (i) => [i, 'name'],
      ),
    ),
  /** Features not listed are off. */
  supportedFeatures: z
    .array(z.object({ name: HospitalFeatureName, enabled: z.boolean() }))
    .max(HOSPITAL_FEATURES.length * 2)
    .superRefine((list, ctx) =>
      uniqueBy(
        list,
        (f) => f.name,
        'feature',
        ctx,
        (i) => [i, 'name'],
      ),
    ),
  /** Where the ED is, for distance and ETA; null when unknown. */
  location: GeoPoint.nullable(),
  /** Stroke centre level, PCI, trauma level (issue 15); none when absent. */
  capabilities: HospitalCapabilities.optional(),
};

export const AdminCreateHospitalBody = z.object(HospitalFields);
export type AdminCreateHospitalBody = z.infer<typeof AdminCreateHospitalBody>;
export const AdminUpdateHospitalBody = z
  .object(HospitalFields)
  .partial()
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'the body must change at least one field');
export type AdminUpdateHospitalBody = z.infer<typeof AdminUpdateHospitalBody>;

export const AdminHospital = z.object({
  id: Id,
  name: z.string(),
  nonTwiage: z.boolean(),
  statusChannelId: z.string(),
  edPhoneNumbers: z.array(EdPhoneNumber),
  /** Every feature of §3, on or off. */
  supportedFeatures: z.array(Feature),
  location: GeoPoint.nullable(),
  /** Always sent by this server; optional for older answers. */
  capabilities: HospitalCapabilities.optional(),
  /** The agencies whose crews have it in their hospital list. */
  agencyIds: z.array(Id),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type AdminHospital = z.infer<typeof AdminHospital>;
export const AdminHospitalsResponse = z.object({ hospitals: z.array(AdminHospital) });
export type AdminHospitalsResponse = z.infer<typeof AdminHospitalsResponse>;

// ---- complaint sets --------------------------------------------------------------------------------

export const COMPLAINT_SET_MAX_COMPLAINTS = 500;
/** An import file larger than this is refused (413) before it is read. */
export const COMPLAINT_SET_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The complaint-set file: what export writes and import reads. `complaints` are exactly what crews
 * receive; ids must be unique (complaints and sections and tags within the set, fields within a tag),
 * complaint names too, and a data-enabled tag needs at least one field.
 */
export const ComplaintSetImport = z
  .object({
    name: Name('name'),
    /** Written by export, ignored by import: the server numbers versions. */
    version: z.number().int().positive().optional(),
    complaints: z
      .array(Complaint)
      .min(1, 'a complaint set needs at least one complaint')
      .max(COMPLAINT_SET_MAX_COMPLAINTS),
  })
  .superRefine((set, ctx) => {
    const complaintIds = new Set<string>();
    const complaintNames = new Set<string>();
    const sectionIds = new Set<string>();
    const tagIds = new Set<string>();
    set.complaints.forEach((complaint, c) => {
      const at = (...rest: (string | number)[]) => ['complaints', c, ...rest];
      if (complaintIds.has(complaint.id))
        ctx.addIssue({ code: 'custom', message: `duplicate id "${complaint.id}"`, path: at('id') });
      complaintIds.add(complaint.id);
      const nameKey = complaint.name.trim().toLowerCase();
      if (complaintNames.has(nameKey))
        ctx.addIssue({ code: 'custom', message: `duplicate name "${complaint.name}"`, path: at('name') });
      complaintNames.add(nameKey);
      complaint.sections.forEach((section, s) => {
        if (sectionIds.has(section.id))
          ctx.addIssue({ code: 'custom', message: `duplicate id "${section.id}"`, path: at('sections', s, 'id') });
        sectionIds.add(section.id);
        section.tags.forEach((tag, t) => {
          if (tagIds.has(tag.id))
            ctx.addIssue({
              code: 'custom',
              message: `duplicate id "${tag.id}"`,
              path: at('sections', s, 'tags', t, 'id'),
            });
          tagIds.add(tag.id);
          if (tag.category === DATA_ENABLED_CATEGORY && tag.data.length === 0)
            ctx.addIssue({
              code: 'custom',
              message: `a ${DATA_ENABLED_CATEGORY} tag needs at least one data field`,
              path: at('sections', s, 'tags', t, 'data'),
            });
          const keys = new Set<string>();
          tag.data.forEach((field, f) => {
            if (keys.has(field.key))
              ctx.addIssue({
                code: 'custom',
                message: `duplicate key "${field.key}"`,
                path: at('sections', s, 'tags', t, 'data', f, 'key'),
              });
            keys.add(field.key);
          });
        });
      });
    });
  });
export type ComplaintSetImport = z.infer<typeof ComplaintSetImport>;

/** "complaints[3].sections[1].tags[0].id": a path as people write it. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    const name = String(segment);
    return text === '' ? name : `${text}.${name}`;
  }, '');
}

/** How many problems an import answer lists; the rest are counted. */
export const IMPORT_ISSUES_SHOWN = 10;

/**
 * The import's problems, each naming its entry: `complaints[3].sections[1].tags[0].id: duplicate id
 * "t-lkw"`. The server answers them joined as its 400 message; the console shows them before upload.
 */
export function describeImportIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines = issues.slice(0, IMPORT_ISSUES_SHOWN).map((issue) => {
    const where = formatIssuePath(issue.path);
    const field = issue.path.at(-1);
    const text =
      /received undefined/.test(issue.message) && field !== undefined ? `${String(field)} is required` : issue.message;
    return where === '' ? text : `${where}: ${text}`;
  });
  if (issues.length > IMPORT_ISSUES_SHOWN) lines.push(`… and ${issues.length - IMPORT_ISSUES_SHOWN} more problems`);
  return lines;
}

export const ComplaintSetImportResponse = z.object({
  id: Id,
  name: z.string(),
  version: z.number().int().positive(),
  complaintCount: z.number().int(),
  /** True when a set of that name existed: the import is its new version. */
  replaced: z.boolean(),
});
export type ComplaintSetImportResponse = z.infer<typeof ComplaintSetImportResponse>;

export const AdminComplaintSetSummary = z.object({
  id: Id,
  name: z.string(),
  /** The newest version: what crews starting a case get. */
  version: z.number().int().positive(),
  complaintCount: z.number().int(),
  createdAt: z.iso.datetime(),
  /** The agencies using the set. */
  agencies: z.array(z.object({ id: Id, name: z.string() })),
});
export type AdminComplaintSetSummary = z.infer<typeof AdminComplaintSetSummary>;
export const AdminComplaintSetsResponse = z.object({ sets: z.array(AdminComplaintSetSummary) });
export type AdminComplaintSetsResponse = z.infer<typeof AdminComplaintSetsResponse>;

export const ComplaintSetExportQuery = z.object({ name: Name('name') });
export const ComplaintSetExport = z.object({
  name: z.string(),
  version: z.number().int().positive(),
  complaints: z.array(Complaint),
});
export type ComplaintSetExport = z.infer<typeof ComplaintSetExport>;

// ---- routes ----------------------------------------------------------------------------------------

export const adminCatalogRoutes = {
  adminAgencies: {
    method: 'GET',
    path: '/v4/admin/agencies',
    summary: 'Every agency, by name (organisation admins)',
    auth: true,
    response: AdminAgenciesResponse,
  },
  adminAgency: {
    method: 'GET',
    path: '/v4/admin/agencies/:id',
    summary: 'An agency with its hospitals, monitors, EMT levels, patient info form and trucks',
    auth: true,
    params: AdminIdParams,
    response: AdminAgency,
  },
  adminCreateAgency: {
    method: 'POST',
    path: '/v4/admin/agencies',
    summary: 'Create an agency',
    auth: true,
    body: AdminCreateAgencyBody,
    response: AdminAgency,
  },
  adminUpdateAgency: {
    method: 'PATCH',
    path: '/v4/admin/agencies/:id',
    summary: "Change an agency's fields (those sent)",
    auth: true,
    params: AdminIdParams,
    body: AdminUpdateAgencyBody,
    response: AdminAgency,
  },
  adminAddTruck: {
    method: 'POST',
    path: '/v4/admin/agencies/:id/trucks',
    summary: 'Add a truck to an agency',
    auth: true,
    params: AdminIdParams,
    body: AdminTruckBody,
    response: AdminTruck,
  },
  adminUpdateTruck: {
    method: 'PATCH',
    path: '/v4/admin/agencies/:id/trucks/:truckId',
    summary: 'Rename a truck or change ALS/BLS',
    auth: true,
    params: AdminTruckParams,
    body: AdminUpdateTruckBody,
    response: AdminTruck,
  },
  adminRemoveTruck: {
    method: 'DELETE',
    path: '/v4/admin/agencies/:id/trucks/:truckId',
    summary: 'Remove a truck (deleted when never used, retired when used; 409 while on an open case)',
    auth: true,
    params: AdminTruckParams,
    response: AdminRemoveTruckResponse,
  },
  adminHospitals: {
    method: 'GET',
    path: '/v4/admin/hospitals',
    summary: 'Every hospital, by name (organisation admins)',
    auth: true,
    response: AdminHospitalsResponse,
  },
  adminHospital: {
    method: 'GET',
    path: '/v4/admin/hospitals/:id',
    summary: 'A hospital as administered',
    auth: true,
    params: AdminIdParams,
    response: AdminHospital,
  },
  adminCreateHospital: {
    method: 'POST',
    path: '/v4/admin/hospitals',
    summary: 'Create a hospital (its status channel id is generated)',
    auth: true,
    body: AdminCreateHospitalBody,
    response: AdminHospital,
  },
  adminUpdateHospital: {
    method: 'PATCH',
    path: '/v4/admin/hospitals/:id',
    summary: "Change a hospital's fields (those sent)",
    auth: true,
    params: AdminIdParams,
    body: AdminUpdateHospitalBody,
    response: AdminHospital,
  },
  adminComplaintSets: {
    method: 'GET',
    path: '/v4/admin/complaint-sets',
    summary: 'Every complaint set: its newest version and the agencies using it',
    auth: true,
    response: AdminComplaintSetsResponse,
  },
  adminExportComplaintSet: {
    method: 'GET',
    path: '/v4/admin/complaint-sets/export',
    summary: 'The newest version of a set as a file import reads',
    auth: true,
    query: ComplaintSetExportQuery,
    response: ComplaintSetExport,
  },
  adminImportComplaintSet: {
    method: 'POST',
    path: '/v4/admin/complaint-sets/import',
    summary:
      'Import a complaint set (ComplaintSetImport): a new set, or the new version of the set of that name; ' +
      'every problem is named by its entry',
    auth: true,
    // Checked by the service against ComplaintSetImport, so problems are named as in the file
    // (complaints[3].sections[1].tags[0].id), not as request paths.
    body: z.unknown(),
    response: ComplaintSetImportResponse,
  },
} as const satisfies Record<string, RouteDef>;
