import { describe, expect, it } from 'vitest';
import type { DivertedAway } from '@inbound/contract';
import { ApiError } from '../../lib/api';
import { leftForElsewhere } from './caseLeft';

const row = (caseId: string, to: string, at: string): DivertedAway => ({
  caseId,
  caseNumber: `N-${caseId}`,
  toHospitalName: to,
  reason: null,
  at,
});

describe('leftForElsewhere', () => {
  const rows = [
    row('c1', 'Mercy General Hospital', '2026-11-27T10:00:00.000Z'),
    row('c2', 'Mercy General Hospital', '2026-11-27T10:01:00.000Z'),
    row('c1', "St. Mary's Hospital", '2026-11-27T10:05:00.000Z'),
  ];

  it('names the latest hospital a refused case went to', () => {
    expect(leftForElsewhere(new ApiError('Not found', 404), 'c1', rows)?.toHospitalName).toBe("St. Mary's Hospital");
  });

  it('is null for a case that did not leave, for another refusal, and before the list is read', () => {
    expect(leftForElsewhere(new ApiError('Not found', 404), 'c3', rows)).toBeNull();
    expect(leftForElsewhere(new ApiError('Forbidden', 403), 'c1', rows)).toBeNull();
    expect(leftForElsewhere(new ApiError('No response', null), 'c1', rows)).toBeNull();
    expect(leftForElsewhere(new ApiError('Not found', 404), 'c1', undefined)).toBeNull();
  });
});
