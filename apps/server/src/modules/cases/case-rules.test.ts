import { describe, expect, it } from 'vitest';
import { PatchCaseBody, type Complaint, type Tag } from '@inbound/contract';
import { standardComplaints } from '../../seed/complaint-sets.js';
import { CASE_NUMBER_PATTERN, randomCaseNumber } from './case-number.js';
import {
  checkPatientInfo,
  checkTagValues,
  isCalendarDate,
  isDateTimeWithOffset,
  requireTagOfComplaint,
  valueProblem,
} from './case-rules.js';

const complaints = new Map<string, Complaint>(standardComplaints.map((c) => [c.id, c]));
const lams: Tag = requireTagOfComplaint(complaints, 'stroke', 'stroke.stroke-scale.lams').tag;

describe('field values', () => {
  it.each([
    ['number', '42', null],
    ['number', '-3.5e2', null],
    ['number', ' 7 ', null],
    ['number', 'NaN', 'must be a number'],
    ['number', '1/2', 'must be a number'],
    ['date', '2026-11-21', null],
    ['date', '2026-13-01', 'must be a date YYYY-MM-DD'],
    ['date', '2025-02-29', 'must be a date YYYY-MM-DD'],
    ['date', '2024-02-29', null],
    ['datetime', '2026-11-21T06:15:00-05:00', null],
    ['datetime', '2026-11-21T11:15:00.123Z', null],
    ['datetime', '2026-11-21T11:15Z', null],
    ['datetime', '2026-11-21T11:15:00', 'must be a full ISO-8601 date-time with a time zone'],
    ['datetime', '2026-11-21', 'must be a full ISO-8601 date-time with a time zone'],
    ['text', 'x'.repeat(1000), null],
    ['text', 'x'.repeat(1001), 'must be at most 1000 characters'],
    ['number', '', null],
  ] as const)('%s %j → %s', (type, value, problem) => {
    expect(valueProblem(type, value)).toBe(problem);
  });

  it('checks calendar dates and offsets', () => {
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isDateTimeWithOffset('2026-04-31T10:00:00Z')).toBe(false);
  });
});

describe('tags', () => {
  it('belong to the chosen complaint of the set', () => {
    expect(() => requireTagOfComplaint(complaints, null, 'stroke.deficits.left')).toThrow('Choose a complaint');
    expect(() => requireTagOfComplaint(complaints, 'stemi', 'stroke.deficits.left')).toThrow(
      'belongs to complaint stroke',
    );
    expect(() => requireTagOfComplaint(complaints, 'stroke', 'x.y.z')).toThrow("not in the case's complaint set");
    expect(requireTagOfComplaint(complaints, 'stroke', 'stroke.deficits.left').tag.groupIdentifier).toBe('stroke-side');
  });

  it("take values named and typed as the tag's fields", () => {
    expect(checkTagValues(lams, [{ key: 'lamsScore', value: '4', name: 'whatever', type: 'number' }])).toEqual([
      { key: 'lamsScore', value: '4', name: 'LAMS Score (0-5)', type: 'number' },
    ]);
    expect(() => checkTagValues(lams, [{ key: 'lamsScore', value: 'four', name: '', type: 'number' }])).toThrow(
      'fields.lamsScore: must be a number.',
    );
  });
});

describe('patient info', () => {
  const fields = [
    { key: 'firstName', name: 'First Name', type: 'text' },
    { key: 'dateOfBirth', name: 'DOB', type: 'date' },
    { key: 'card', name: 'Card', type: 'photo' },
  ];

  it('keeps the filled fields of the form', () => {
    expect(
      checkPatientInfo(fields, [
        { key: 'firstName', value: ' ' },
        { key: 'dateOfBirth', value: '1959-03-14' },
      ]),
    ).toEqual([{ key: 'dateOfBirth', value: '1959-03-14' }]);
    expect(() => checkPatientInfo(fields, [{ key: 'card', value: 'x' }])).toThrow('photo field');
  });
});

describe('PATCH body', () => {
  it('names the problem', () => {
    const issue = (body: unknown) => PatchCaseBody.safeParse(body).error?.issues[0]?.message;
    expect(issue({ age: 121, agePeriod: 3 })).toBe('age must be from 1 to 120 for agePeriod 3');
    expect(issue({ gender: 'F', age: 3, agePeriod: 3 })).toBe(
      'exactly one of complaint, destinationHospital, gender, age, arrivedAt must be given (got gender, age)',
    );
    expect(PatchCaseBody.parse({ age: null, agePeriod: 2 })).toEqual({ age: null, agePeriod: 2 });
  });
});

describe('case numbers', () => {
  it('are three letters and three digits without look-alikes', () => {
    for (let i = 0; i < 200; i++) {
      const n = randomCaseNumber();
      expect(n).toMatch(CASE_NUMBER_PATTERN);
      expect(n).not.toMatch(/[IO01]/);
    }
  });
});
