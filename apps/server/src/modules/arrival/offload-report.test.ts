import { describe, expect, it } from 'vitest';
import { buildOffloadReport, daysOf, localDayHour, percentile } from './offload-report.js';

describe('offload report arithmetic', () => {
  it('nearest-rank percentiles', () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(ten, 50)).toBe(5);
    expect(percentile(ten, 90)).toBe(9);
    expect(percentile([7], 90)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });

  it('counts days and hours in the given time zone', () => {
    expect(localDayHour('2026-11-25T03:30:00.000Z', 'America/New_York')).toEqual({ day: '2026-11-24', hour: 22 });
    expect(daysOf('2026-11-29', '2026-12-02')).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
  });

  it('per day and hour, with offload, lead and acknowledge times', () => {
    const c = (n: number, arrivedAt: string, handoffAt: string | null) => ({
      caseId: `c${n}`,
      caseNumber: `N${n}`,
      notifiedAt: '2026-11-25T09:40:00.000Z',
      acknowledgedAt: '2026-11-25T09:42:00.000Z',
      arrivedAt,
      arrivalSource: 'geofence' as const,
      handoffAt,
      handoffByName: handoffAt ? 'TB' : null,
    });
    const report = buildOffloadReport({
      hospital: { id: 'h', name: 'R' },
      from: '2026-11-25',
      to: '2026-11-26',
      tz: 'UTC',
      offloadAlertMinutes: 30,
      cases: [
        c(1, '2026-11-25T10:00:00.000Z', '2026-11-25T10:20:00.000Z'),
        c(2, '2026-11-25T10:30:00.000Z', '2026-11-25T11:15:00.000Z'),
        c(3, '2026-11-25T10:45:00.000Z', null),
        c(4, '2026-11-27T10:45:00.000Z', null), // outside the period
      ],
    });
    expect(report.total).toEqual({
      arrivals: 3,
      offloadMedian: 20,
      offloadP90: 45,
      leadMedian: 50,
      acknowledgeMedian: 2,
    });
    expect(report.byDay.map((d) => d.arrivals)).toEqual([3, 0]);
    expect(report.byHour[10]).toMatchObject({ arrivals: 3, arrivalsPerDay: 1.5 });
    expect(report.cases.map((r) => r.offloadMinutes)).toEqual([20, 45, null]);
  });
});
