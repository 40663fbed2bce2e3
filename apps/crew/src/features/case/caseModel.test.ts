import { describe, expect, it } from 'vitest';
import { messages } from '@inbound/contract';
import { hospital, localCase, riverside, team, trucks } from '../../test/fixtures';
import {
  autoCloseDelayMs,
  isCaseClosable,
  newPlaceholderCase,
  patientInfoToSubmit,
  patientSummary,
  shouldAskCaseFeedback,
  validateAge,
} from './caseModel';

describe('the placeholder case (spec §4)', () => {
  it('is placeholder-{timestamp} with caseNumber ..., the team and truck, the team complaint set', () => {
    const created = newPlaceholderCase(riverside, trucks[1]!, 1_732_200_000_000);
    expect(created).toMatchObject({
      id: 'placeholder-1732200000000',
      caseNumber: '...',
      emsAgency: 'riverside',
      truck: 't-medic1',
      complaintSet: riverside.complaintSet,
      createdAt: new Date(1_732_200_000_000).toISOString(),
      agePeriod: 3,
      tags: [],
    });
  });
});

describe('age (spec §5)', () => {
  it.each([
    ['67', 3, { kind: 'valid', age: 67 }],
    ['1', 1, { kind: 'valid', age: 1 }],
    ['120', 3, { kind: 'valid', age: 120 }],
    ['24', 2, { kind: 'valid', age: 24 }],
    ['24', 1, { kind: 'valid', age: 24 }],
    ['', 3, { kind: 'empty' }],
    ['  ', 2, { kind: 'empty' }],
    ['121', 3, { kind: 'invalid', message: messages.ageHint(120) }],
    ['25', 2, { kind: 'invalid', message: messages.ageHint(24) }],
    ['25', 1, { kind: 'invalid', message: messages.ageHint(24) }],
    ['0', 3, { kind: 'invalid', message: messages.ageHint(120) }],
    ['1.5', 3, { kind: 'invalid', message: messages.ageHint(120) }],
    ['-3', 3, { kind: 'invalid', message: messages.ageHint(120) }],
    ['abc', 3, { kind: 'invalid', message: messages.ageHint(120) }],
  ] as const)('%j in period %i → %j', (text, period, expected) => {
    expect(validateAge(text, period)).toEqual(expected);
  });
});

describe('patient info (spec §5)', () => {
  const fields = [
    { key: 'firstName', name: 'First Name', type: 'text' },
    { key: 'lastName', name: 'Last Name', type: 'text' },
    { key: 'dateOfBirth', name: 'DOB', type: 'date' },
    { key: 'notes', name: 'Notes', type: 'multiline_text' },
    { key: 'weight', name: 'Weight', type: 'number' },
  ];

  it('drops empty fields and fields of other types, trims values', () => {
    expect(
      patientInfoToSubmit(fields, {
        firstName: ' Ada ',
        lastName: '',
        dateOfBirth: '1958-03-01',
        notes: '  ',
        weight: '70',
      }),
    ).toEqual([
      { key: 'firstName', value: 'Ada' },
      { key: 'dateOfBirth', value: '1958-03-01' },
    ]);
  });

  it('summarises name and DOB, only when patient info exists', () => {
    expect(patientSummary([])).toBeNull();
    expect(
      patientSummary([
        { key: 'firstName', value: 'Ada' },
        { key: 'lastName', value: 'Lovelace' },
        { key: 'dateOfBirth', value: '1958-03-01' },
      ]),
    ).toEqual({ name: 'Ada Lovelace', dob: '1958-03-01' });
  });
});

describe('isCaseClosable (spec §4)', () => {
  const requiring = hospital('req', 'Requires Name', ['caseRequiresPtNameAndDOB']);
  const plain = hospital('plain', 'Plain');
  const withHospitals = team('t', 'T', [requiring, plain]);

  it('needs a hospital when the team has hospitals', () => {
    expect(isCaseClosable(localCase(), withHospitals)).toEqual({ closable: false, reason: 'noHospital' });
    expect(isCaseClosable(localCase(), team('none', 'None', []))).toEqual({ closable: true });
  });

  it('closes with a hospital that needs nothing more', () => {
    expect(isCaseClosable(localCase({ destinationHospital: { id: 'plain' } }), withHospitals)).toEqual({
      closable: true,
    });
  });

  it('lists the missing First Name, Last Name, DOB for a hospital that requires them', () => {
    const blankName = localCase({
      destinationHospital: { id: 'req' },
      patientInfo: [
        { key: 'firstName', value: 'Ada' },
        { key: 'lastName', value: '  ' },
      ],
    });
    expect(isCaseClosable(blankName, withHospitals)).toEqual({
      closable: false,
      reason: 'patientInfo',
      missing: ['Last Name', 'DOB'],
    });
    const complete = localCase({
      destinationHospital: { id: 'req' },
      patientInfo: [
        { key: 'firstName', value: 'Ada' },
        { key: 'lastName', value: 'Lovelace' },
        { key: 'dateOfBirth', value: '1958-03-01' },
      ],
    });
    expect(isCaseClosable(complete, withHospitals)).toEqual({ closable: true });
  });
});

describe('auto-close timing (spec §4)', () => {
  const createdAt = '2026-11-21T10:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('is maxCaseLength minutes after createdAt', () => {
    expect(autoCloseDelayMs(createdAt, 240, at('2026-11-21T10:00:00.000Z'))).toBe(240 * 60_000);
    expect(autoCloseDelayMs(createdAt, 240, at('2026-11-21T13:59:59.000Z'))).toBe(1_000);
  });

  it('is 0 (close at once) when already elapsed', () => {
    expect(autoCloseDelayMs(createdAt, 240, at('2026-11-21T14:00:00.000Z'))).toBe(0);
    expect(autoCloseDelayMs(createdAt, 240, at('2026-11-22T10:00:00.000Z'))).toBe(0);
  });
});

describe('shouldAskCaseFeedback (spec §4)', () => {
  const taking = hospital('h', 'Takes Feedback', ['emsFeedback']);
  it('asks only for a platform hospital that takes feedback, with Do Not Disturb off', () => {
    expect(shouldAskCaseFeedback(taking, false)).toBe(true);
    expect(shouldAskCaseFeedback(taking, true)).toBe(false);
    expect(shouldAskCaseFeedback(hospital('p', 'Plain'), false)).toBe(false);
    expect(shouldAskCaseFeedback({ ...taking, nonTwiage: true }, false)).toBe(false);
    expect(shouldAskCaseFeedback(null, false)).toBe(false);
  });
});
