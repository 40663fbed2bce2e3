import { describe, expect, it } from 'vitest';
import { roundLabel } from './alertRound';

describe('roundLabel', () => {
  it('says nothing on the first alert and counts the re-alerts', () => {
    expect(roundLabel({ escalatedAt: null, alertRounds: 1 })).toBeNull();
    expect(roundLabel({ escalatedAt: null, alertRounds: 3 })).toBe('alert 3');
  });

  it('tells a backup called at 20 minutes that the team was escalated, not the round', () => {
    expect(roundLabel({ escalatedAt: '2026-11-27T13:20:00.000Z', alertRounds: 11 })).toBe('escalated to backups');
  });
});
