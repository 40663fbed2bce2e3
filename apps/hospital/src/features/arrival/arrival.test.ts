import { describe, expect, it } from 'vitest';
import type { BoardCase, OffloadReport } from '@inbound/contract';
import { csvCell, reportCsv } from './csv';
import { formatTimer, isInbound, isOffloading, isOverThreshold } from './lanes';

const card = (over: Partial<BoardCase>) => ({ id: 'c', arrival: null, handoff: null, ...over }) as BoardCase;
const at = '2026-11-25T13:00:00.000Z';

describe('board lanes', () => {
  it('Inbound until arrival, Arrived until the hand-over, then neither', () => {
    const inbound = card({});
    const arrived = card({ arrival: { at, source: 'geofence', byName: null } });
    const done = card({ arrival: { at, source: 'crew', byName: null }, handoff: { at, byName: 'TB' } });
    expect([isInbound(inbound), isOffloading(inbound)]).toEqual([true, false]);
    expect([isInbound(arrived), isOffloading(arrived)]).toEqual([false, true]);
    expect([isInbound(done), isOffloading(done)]).toEqual([false, false]);
  });

  it('turns amber at the threshold, not before, and never after the hand-over', () => {
    const arrived = card({ arrival: { at, source: 'hospital', byName: 'TB' } });
    const t = Date.parse(at);
    expect(isOverThreshold(arrived, t + 29 * 60_000 + 59_000, 30)).toBe(false);
    expect(isOverThreshold(arrived, t + 30 * 60_000, 30)).toBe(true);
    expect(isOverThreshold({ ...arrived, handoff: { at, byName: 'TB' } }, t + 90 * 60_000, 30)).toBe(false);
  });

  it('formats the timer', () => {
    expect(formatTimer(4 * 60_000 + 7_000)).toBe('4:07');
    expect(formatTimer(3_723_000)).toBe('1:02:03');
    expect(formatTimer(-5)).toBe('0:00');
  });
});

describe('report CSV', () => {
  it('quotes separators and defuses formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(-3.5)).toBe('-3.5');
  });

  it('one header and one row per case', () => {
    const report = {
      hospital: { id: 'h', name: 'R' },
      cases: [
        {
          caseId: 'c1',
          caseNumber: 'AB12',
          notifiedAt: at,
          acknowledgedAt: null,
          arrivedAt: at,
          arrivalSource: 'geofence',
          handoffAt: at,
          handoffByName: 'Taylor Brooks',
          offloadMinutes: 0,
          leadMinutes: 12.5,
          acknowledgeMinutes: null,
        },
      ],
    } as unknown as OffloadReport;
    const lines = reportCsv(report).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Case,Notified at,/);
    expect(lines[1]).toBe(`AB12,${at},,${at},geofence,${at},Taylor Brooks,0,12.5,`);
  });
});
