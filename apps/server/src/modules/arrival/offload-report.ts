/**
 * The offload report (issue 15 item 3), computed from the hospital's arrived cases: offload ("wall")
 * time = arrival → the ED's acceptance of the hand-over; lead time = the pre-notification (this hospital
 * named the destination) → arrival; acknowledge time = notice → the ED's "seen". Per day and per hour of
 * day in the caller's time zone. Percentiles by nearest rank (the p90 of 10 values is the 9th).
 */
import type { ArrivalSource, OffloadReport, OffloadReportCase } from '@inbound/contract';

export interface ReportCaseInput {
  caseId: string;
  caseNumber: string;
  notifiedAt: string | null;
  acknowledgedAt: string | null;
  arrivedAt: string;
  arrivalSource: ArrivalSource;
  handoffAt: string | null;
  handoffByName: string | null;
}

const minutesBetween = (from: string | null, to: string | null): number | null =>
  from === null || to === null ? null : Math.round(((Date.parse(to) - Date.parse(from)) / 60_000) * 10) / 10;

/** The nearest-rank percentile of the values (0 < p ≤ 100); null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A time's local calendar day (YYYY-MM-DD) and hour (0–23) in `tz`. */
export function localDayHour(iso: string, tz: string): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { day: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')) };
}

/** Every day from `from` to `to`, inclusive. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

function stats(rows: OffloadReportCase[]) {
  const present = (key: 'offloadMinutes' | 'leadMinutes' | 'acknowledgeMinutes') =>
    rows.flatMap((r) => (r[key] === null ? [] : [r[key]]));
  const offload = present('offloadMinutes');
  return {
    arrivals: rows.length,
    offloadMedian: percentile(offload, 50),
    offloadP90: percentile(offload, 90),
    leadMedian: percentile(present('leadMinutes'), 50),
    acknowledgeMedian: percentile(present('acknowledgeMinutes'), 50),
  };
}

export function buildOffloadReport(input: {
  hospital: { id: string; name: string };
  from: string;
  to: string;
  tz: string;
  offloadAlertMinutes: number;
  cases: ReportCaseInput[];
}): OffloadReport {
  const days = daysOf(input.from, input.to);
  const rows = input.cases
    .map((c) => ({ ...c, local: localDayHour(c.arrivedAt, input.tz) }))
    .filter((c) => c.local.day >= input.from && c.local.day <= input.to);
  const cases: (OffloadReportCase & { local: { day: string; hour: number } })[] = rows.map((c) => ({
    caseId: c.caseId,
    caseNumber: c.caseNumber,
    notifiedAt: c.notifiedAt,
    acknowledgedAt: c.acknowledgedAt,
    arrivedAt: c.arrivedAt,
    arrivalSource: c.arrivalSource,
    handoffAt: c.handoffAt,
    handoffByName: c.handoffByName,
    offloadMinutes: minutesBetween(c.arrivedAt, c.handoffAt),
    leadMinutes: minutesBetween(c.notifiedAt, c.arrivedAt),
    acknowledgeMinutes: minutesBetween(c.notifiedAt, c.acknowledgedAt),
    local: c.local,
  }));
  return {
    hospital: input.hospital,
    from: input.from,
    to: input.to,
    tz: input.tz,
    offloadAlertMinutes: input.offloadAlertMinutes,
    byDay: days.map((day) => ({ day, ...stats(cases.filter((c) => c.local.day === day)) })),
    byHour: Array.from({ length: 24 }, (_, hour) => {
      const inHour = cases.filter((c) => c.local.hour === hour);
      return { hour, arrivalsPerDay: Math.round((inHour.length / days.length) * 100) / 100, ...stats(inHour) };
    }),
    total: stats(cases),
    cases: cases.map(({ local: _local, ...c }) => c),
  };
}
