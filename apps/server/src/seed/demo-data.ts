/**
 * The demo organisation of docs/seed-data.md: names exactly as written there. Ids are fixed and
 * readable so tests, e2e runs and people at a terminal can name things without looking them up.
 */
import type { Feature, HospitalCapabilities, PatientInfoField, UserRole } from '@inbound/contract';
import { HILLTOP_SET_NAME, STANDARD_SET_NAME } from './complaint-sets.js';

export const IDS = {
  users: { medic1: 'user-medic1', medic2: 'user-medic2', medic3: 'user-medic3', ed1: 'user-ed1', admin: 'user-admin' },
  agencies: {
    riverside: 'agency-riverside-ems',
    lakeside: 'agency-lakeside-fire-rescue',
    hilltop: 'agency-hilltop-volunteer',
  },
  hospitals: {
    riversideRegional: 'hospital-riverside-regional',
    stMarys: 'hospital-st-marys',
    mercyGeneral: 'hospital-mercy-general',
    valleyCommunity: 'hospital-valley-community',
    lakesideMedical: 'hospital-lakeside-medical',
  },
  patientInfoForm: 'form-patient-info',
  complaintSets: {
    standardV1: 'cset-standard-2026-v1',
    standardV2: 'cset-standard-2026-v2',
    hilltop: 'cset-hilltop-bls-2026-v1',
  },
} as const;

const features = (enabled: Partial<Record<string, boolean>>, names: string[]): Feature[] =>
  names.map((name) => ({ name, enabled: enabled[name] ?? false }));

const HOSPITAL_FEATURES = [
  'liveConsult',
  'emsFeedback',
  'caseRequiresPtNameAndDOB',
  'showAiProtocolFeedback',
  'aiProtocolHideSummary',
];

export interface DemoUser {
  id: string;
  username: string;
  displayName: string;
  email: string;
  roles: UserRole[];
  features: Feature[];
  memberOf: string[];
  administers: string[];
  edStaffOf: string[];
}

const crewFeatures = (ai: boolean) => features({ aiEnhancedProtocols: ai }, ['aiEnhancedProtocols']);

export const demoUsers: DemoUser[] = [
  {
    id: IDS.users.medic1,
    username: 'medic1',
    displayName: 'Jordan Reyes',
    email: 'medic1@inbound.example',
    roles: ['crew'],
    features: crewFeatures(true),
    memberOf: [IDS.agencies.riverside, IDS.agencies.lakeside],
    administers: [IDS.agencies.hilltop],
    edStaffOf: [],
  },
  {
    id: IDS.users.medic2,
    username: 'medic2',
    displayName: 'Sam Patel',
    email: 'medic2@inbound.example',
    roles: ['crew'],
    features: crewFeatures(false),
    memberOf: [IDS.agencies.riverside],
    administers: [],
    edStaffOf: [],
  },
  {
    id: IDS.users.medic3,
    username: 'medic3',
    displayName: 'Casey Nguyen',
    email: 'medic3@inbound.example',
    roles: ['crew'],
    features: crewFeatures(false),
    memberOf: [IDS.agencies.lakeside],
    administers: [],
    edStaffOf: [],
  },
  {
    id: IDS.users.ed1,
    username: 'ed1',
    displayName: 'Taylor Brooks',
    email: 'ed1@inbound.example',
    roles: ['edStaff'],
    features: [],
    memberOf: [],
    administers: [],
    edStaffOf: [IDS.hospitals.riversideRegional],
  },
  {
    id: IDS.users.admin,
    username: 'admin',
    displayName: 'Morgan Lee',
    email: 'admin@inbound.example',
    roles: ['orgAdmin'],
    features: [],
    memberOf: [],
    administers: [],
    edStaffOf: [],
  },
];

/** Every demo password is `demo-` + the username. */
export const demoPassword = (username: string) => `demo-${username}`;

export interface DemoHospital {
  id: string;
  name: string;
  nonTwiage: boolean;
  edPhoneNumbers: { name: string; phoneNumber: string }[];
  supportedFeatures: Feature[];
  location: { latitude: number; longitude: number };
  statuses: { id: string; status: string; priority: 'critical' | 'urgent'; minutesAgo: number }[];
  /** Destination advice (issue 15): stroke centre, PCI, trauma level; none when absent. */
  capabilities?: HospitalCapabilities;
}

export const demoHospitals: DemoHospital[] = [
  {
    id: IDS.hospitals.riversideRegional,
    name: 'Riverside Regional Medical Center',
    nonTwiage: false,
    edPhoneNumbers: [
      { name: 'ED Charge Nurse', phoneNumber: '+1-555-0100' },
      { name: 'ED Physician', phoneNumber: '+1-555-0101' },
      { name: 'Stroke Team', phoneNumber: '+1-555-0102' },
    ],
    supportedFeatures: features(
      { liveConsult: true, emsFeedback: true, caseRequiresPtNameAndDOB: true, showAiProtocolFeedback: true },
      HOSPITAL_FEATURES,
    ),
    location: { latitude: 41.4993, longitude: -81.6944 },
    capabilities: { strokeCenter: 'comprehensive', pci: true, traumaLevel: 1 },
    statuses: [
      { id: 'status-riverside-cath-lab', status: 'Cath Lab Delayed (30 min)', priority: 'urgent', minutesAgo: 25 },
    ],
  },
  {
    id: IDS.hospitals.stMarys,
    name: "St. Mary's Hospital",
    nonTwiage: false,
    edPhoneNumbers: [
      { name: 'ED Charge Nurse', phoneNumber: '+1-555-0110' },
      { name: 'ED Physician', phoneNumber: '+1-555-0111' },
    ],
    supportedFeatures: features({ emsFeedback: true }, HOSPITAL_FEATURES),
    location: { latitude: 41.4822, longitude: -81.7982 },
    capabilities: { strokeCenter: 'primary', pci: false, traumaLevel: 3 },
    statuses: [{ id: 'status-st-marys-saturated', status: 'ED Saturated', priority: 'urgent', minutesAgo: 50 }],
  },
  {
    id: IDS.hospitals.mercyGeneral,
    name: 'Mercy General Hospital',
    nonTwiage: false,
    edPhoneNumbers: [{ name: 'ED Charge Nurse', phoneNumber: '+1-555-0120' }],
    supportedFeatures: features({ liveConsult: true, aiProtocolHideSummary: true }, HOSPITAL_FEATURES),
    location: { latitude: 41.5116, longitude: -81.6051 },
    capabilities: { strokeCenter: 'thrombectomy', pci: true, traumaLevel: 2 },
    statuses: [
      { id: 'status-mercy-ct-down', status: 'CT Scanner Down', priority: 'critical', minutesAgo: 15 },
      { id: 'status-mercy-no-psych', status: 'No Psychiatric Beds', priority: 'urgent', minutesAgo: 120 },
    ],
  },
  {
    id: IDS.hospitals.valleyCommunity,
    name: 'Valley Community Hospital',
    // Not on the platform: crews see it and can phone its ED, but no case data is sent (§6).
    nonTwiage: true,
    edPhoneNumbers: [{ name: 'Emergency Department', phoneNumber: '+1-555-0130' }],
    supportedFeatures: features({}, HOSPITAL_FEATURES),
    location: { latitude: 41.3917, longitude: -81.5332 },
    statuses: [],
  },
  {
    id: IDS.hospitals.lakesideMedical,
    name: 'Lakeside Medical Center',
    nonTwiage: false,
    edPhoneNumbers: [
      { name: 'ED Charge Nurse', phoneNumber: '+1-555-0140' },
      { name: 'ED Physician', phoneNumber: '+1-555-0141' },
    ],
    supportedFeatures: features({ emsFeedback: true }, HOSPITAL_FEATURES),
    location: { latitude: 41.6612, longitude: -81.3398 },
    statuses: [{ id: 'status-lakeside-trauma-bay', status: 'Trauma Bay Full', priority: 'critical', minutesAgo: 8 }],
  },
];

export const patientInfoForm = {
  id: IDS.patientInfoForm,
  type: 'patientInfo',
  title: 'Patient Info',
  subtitle: 'Some hospitals need name and date of birth before the case can be closed.',
  fields: [
    { key: 'firstName', name: 'First Name', type: 'text' },
    { key: 'lastName', name: 'Last Name', type: 'text' },
    { key: 'dateOfBirth', name: 'DOB', type: 'date' },
    { key: 'mrn', name: 'MRN', type: 'text' },
    { key: 'allergies', name: 'Allergies', type: 'multiline_text' },
    { key: 'medications', name: 'Home Medications', type: 'multiline_text' },
    // A type the crew app does not know: it must be ignored there (spec §3), and this proves it.
    { key: 'insuranceCard', name: 'Insurance Card', type: 'photo' },
  ] satisfies PatientInfoField[],
};

const EMT_LEVELS = [{ name: 'EMR' }, { name: 'EMT' }, { name: 'AEMT' }, { name: 'Paramedic' }];

export interface DemoAgency {
  id: string;
  name: string;
  complaintSetName: string;
  maxCaseLength: number;
  emtLevels: { name: string }[];
  hospitals: string[];
  trucks: { id: string; name: string; isALS: boolean }[];
  monitors: { id: string; name: string; type: string }[];
  forms: string[];
}

export const demoAgencies: DemoAgency[] = [
  {
    id: IDS.agencies.riverside,
    name: 'Riverside EMS',
    complaintSetName: STANDARD_SET_NAME,
    maxCaseLength: 240,
    emtLevels: EMT_LEVELS,
    hospitals: [
      IDS.hospitals.riversideRegional,
      IDS.hospitals.stMarys,
      IDS.hospitals.mercyGeneral,
      IDS.hospitals.valleyCommunity,
    ],
    trucks: [
      { id: 'truck-riverside-medic-1', name: 'Medic 1', isALS: true },
      { id: 'truck-riverside-medic-2', name: 'Medic 2', isALS: true },
      { id: 'truck-riverside-ambulance-5', name: 'Ambulance 5', isALS: false },
    ],
    monitors: [
      { id: 'monitor-riverside-lifepak-medic-1', name: 'LIFEPAK 15 — Medic 1', type: 'lifepak' },
      { id: 'monitor-riverside-zoll-medic-2', name: 'ZOLL X Series — Medic 2', type: 'zoll' },
    ],
    forms: [IDS.patientInfoForm],
  },
  {
    id: IDS.agencies.lakeside,
    name: 'Lakeside Fire Rescue',
    complaintSetName: STANDARD_SET_NAME,
    maxCaseLength: 180,
    emtLevels: EMT_LEVELS,
    hospitals: [IDS.hospitals.lakesideMedical, IDS.hospitals.stMarys],
    trucks: [
      { id: 'truck-lakeside-rescue-7', name: 'Rescue 7', isALS: true },
      { id: 'truck-lakeside-ambulance-12', name: 'Ambulance 12', isALS: false },
    ],
    // Exactly one monitor: the crew app preselects it (§5).
    monitors: [{ id: 'monitor-lakeside-lifepak-rescue-7', name: 'LIFEPAK 35 — Rescue 7', type: 'lifepak' }],
    forms: [IDS.patientInfoForm],
  },
  {
    id: IDS.agencies.hilltop,
    name: 'Hilltop Volunteer Ambulance',
    complaintSetName: HILLTOP_SET_NAME,
    maxCaseLength: 240,
    emtLevels: EMT_LEVELS.slice(0, 2),
    // No hospitals: shown in team selection but not selectable (§2).
    hospitals: [],
    trucks: [
      { id: 'truck-hilltop-1', name: 'Hilltop 1', isALS: false },
      { id: 'truck-hilltop-2', name: 'Hilltop 2', isALS: true },
    ],
    monitors: [],
    forms: [IDS.patientInfoForm],
  },
];

export interface DemoBroadcast {
  id: string;
  content: string;
  urgent: boolean;
  type: 'emsDispatch' | null;
  caseNumber: string | null;
  senderOrganizationName: string;
  agencies: string[];
  minutesAgo: number;
}

export const demoBroadcasts: DemoBroadcast[] = [
  {
    id: 'broadcast-mercy-ct-down',
    content: "CT scanner down until 14:00. Take suspected strokes to Riverside Regional or St. Mary's.",
    urgent: true,
    type: null,
    caseNumber: null,
    senderOrganizationName: 'Mercy General Hospital',
    agencies: [IDS.agencies.riverside],
    minutesAgo: 14,
  },
  {
    id: 'broadcast-riverside-transfer',
    content: 'Interfacility transfer ready for pickup: ED bay 4, STEMI patient going to cath lab at Mercy General.',
    urgent: false,
    type: 'emsDispatch',
    caseNumber: 'RRMC-2026-0142',
    senderOrganizationName: 'Riverside Regional Medical Center',
    agencies: [IDS.agencies.riverside],
    minutesAgo: 40,
  },
  {
    id: 'broadcast-st-marys-entrance',
    content: 'From Monday the ambulance entrance moves to the north side of the building (Elm Street).',
    urgent: false,
    type: null,
    caseNumber: null,
    senderOrganizationName: "St. Mary's Hospital",
    agencies: [IDS.agencies.riverside, IDS.agencies.lakeside],
    minutesAgo: 180,
  },
  {
    id: 'broadcast-lakeside-trauma',
    content: 'Trauma bay full. Expect a short handover delay for trauma patients; medical patients unaffected.',
    urgent: true,
    type: null,
    caseNumber: null,
    senderOrganizationName: 'Lakeside Medical Center',
    agencies: [IDS.agencies.lakeside],
    minutesAgo: 8,
  },
];

export const demoComplaintSetNames = { standard: STANDARD_SET_NAME, hilltop: HILLTOP_SET_NAME };
