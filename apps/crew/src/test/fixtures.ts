import type { AuthToken, ComplaintSet, Hospital, Team, Truck, User } from '@inbound/contract';
import type { StoredCase } from '../lib/session';
import { newPlaceholderCase } from '../features/case/caseModel';

export function hospital(id: string, name: string, features: string[] = []): Hospital {
  return {
    _id: id,
    id,
    name,
    nonTwiage: false,
    statusChannelId: `hospital-status:${id}`,
    edPhoneNumbers: [],
    activeStatuses: [],
    supportedFeatures: features.map((feature) => ({ name: feature, enabled: true })),
    location: null,
  };
}

export function team(id: string, name: string, hospitals: Hospital[]): Team {
  return {
    id,
    _id: id,
    name,
    hospitals,
    complaintSet: 'Default',
    maxCaseLength: 240,
    monitors: [],
    dynamicForms: [],
    patientInfoForm: null,
    codeVital: { emtLevels: [] },
  };
}

export const riverside = team('riverside', 'Riverside EMS', [
  hospital('rrmc', 'Riverside Regional Medical Center', ['emsFeedback', 'liveConsult']),
  hospital('stmary', "St. Mary's Hospital"),
]);
export const lakeside = team('lakeside', 'Lakeside Fire Rescue', [hospital('lmc', 'Lakeside Medical Center')]);
export const hilltop = team('hilltop', 'Hilltop Volunteer Ambulance', []);

export const medic1: User = {
  id: 'u-medic1',
  _id: 'u-medic1',
  username: 'medic1',
  email: 'medic1@inbound.example',
  displayName: 'Jordan Reyes',
  features: [{ name: 'aiEnhancedProtocols', enabled: true }],
  emsAgencyMemberships: [{ _id: 'riverside' }, { _id: 'lakeside' }],
  emsAgenciesAdministered: [{ _id: 'hilltop' }],
  hospitalMemberships: [],
  roles: ['crew'],
};

export const trucks: Truck[] = [
  { id: 't-medic2', _id: 't-medic2', name: 'Medic 2', isALS: true },
  { id: 't-medic1', _id: 't-medic1', name: 'Medic 1', isALS: true },
  { id: 't-amb5', _id: 't-amb5', name: 'Ambulance 5', isALS: false },
];

/** A JWT-shaped token (unsigned) that expires `inMs` from now. */
export function authToken(inMs = 3_600_000): AuthToken {
  const exp = Math.floor((Date.now() + inMs) / 1000);
  const payload = btoa(JSON.stringify({ sub: 'u-medic1', exp })).replace(/=+$/, '');
  return {
    token: `eyJhbGciOiJIUzI1NiJ9.${payload}.signature`,
    expirationDate: new Date(Date.now() + inMs).toISOString(),
  };
}

/** A signed-in crew on Riverside EMS, Medic 1. */
export function signedInSession() {
  return {
    jwt: authToken(),
    user: medic1,
    teams: [hilltop, lakeside, riverside],
    selectedTeam: riverside,
    selectedTruck: trucks[1]!,
  };
}

/** A case as the device keeps it (lib/session StoredCase), already created on the server unless overridden. */
export function localCase(overrides: Partial<StoredCase> = {}): StoredCase {
  return {
    ...newPlaceholderCase(riverside, trucks[1]!, Date.now()),
    id: 'case-1',
    caseNumber: 'RV-7K2',
    channelId: 'case:case-1',
    ownedBy: medic1.id,
    ...overrides,
  };
}

/** A small stroke-centred complaint set: a group (side), a plain tag, a data-enabled tag. */
export const complaintSet: ComplaintSet = {
  _id: 'cs-default',
  name: 'Default',
  version: 3,
  complaints: [
    {
      id: 'stroke',
      name: 'Stroke',
      priority: 1,
      color: '#D32F2F',
      nemsisPreArrivalAlert: '4224015',
      sections: [
        {
          id: 'symptoms',
          name: 'Symptoms',
          tags: [
            { id: 'droop', name: 'Facial Droop', groupIdentifier: null, category: null, data: [] },
            {
              id: 'lkw',
              name: 'Last Known Well',
              groupIdentifier: null,
              category: 'data-enabled',
              data: [
                { key: 'time', name: 'Time', type: 'datetime' },
                { key: 'gcs', name: 'GCS', type: 'number' },
              ],
            },
          ],
        },
        {
          id: 'side',
          name: 'Side',
          tags: [
            { id: 'left', name: 'Left', groupIdentifier: 'side', category: null, data: [] },
            { id: 'right', name: 'Right', groupIdentifier: 'side', category: null, data: [] },
          ],
        },
      ],
    },
    { id: 'chest', name: 'Chest Pain', priority: 2, color: '#FFC107', nemsisPreArrivalAlert: null, sections: [] },
    { id: 'fall', name: 'Fall', priority: 3, color: '#2E7D32', nemsisPreArrivalAlert: null, sections: [] },
  ],
};

/** Riverside with a patient info form, a hospital requiring name and DOB, and one not on the platform. */
export const caseTeam: Team = {
  ...riverside,
  hospitals: [
    {
      ...hospital('rrmc', 'Riverside Regional Medical Center', ['caseRequiresPtNameAndDOB']),
      activeStatuses: [{ _id: 's1', status: 'CT down', priority: 'critical', setAt: '2026-11-21T10:00:00.000Z' }],
    },
    hospital('stmary', "St. Mary's Hospital"),
    { ...hospital('county', 'County Clinic'), nonTwiage: true },
  ],
  patientInfoForm: {
    id: 'pif',
    title: 'Patient Info',
    subtitle: 'As far as known',
    fields: [
      { key: 'firstName', name: 'First Name', type: 'text' },
      { key: 'lastName', name: 'Last Name', type: 'text' },
      { key: 'dateOfBirth', name: 'DOB', type: 'date' },
      { key: 'notes', name: 'Notes', type: 'multiline_text' },
      { key: 'weight', name: 'Weight', type: 'number' },
    ],
  },
};
