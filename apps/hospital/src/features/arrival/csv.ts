/**
 * The offload report's CSV export: one row per arrived case, RFC 4180 quoting, and a leading quote for
 * cells a spreadsheet would run as a formula (=, +, -, @ …: CSV injection).
 */
import type { OffloadReport } from '@inbound/contract';

const COLUMNS = [
  ['caseNumber', 'Case'],
  ['notifiedAt', 'Notified at'],
  ['acknowledgedAt', 'Acknowledged at'],
  ['arrivedAt', 'Arrived at'],
  ['arrivalSource', 'Arrival marked by'],
  ['handoffAt', 'Handoff at'],
  ['handoffByName', 'Handoff accepted by'],
  ['offloadMinutes', 'Offload (min)'],
  ['leadMinutes', 'Notice to arrival (min)'],
  ['acknowledgeMinutes', 'Notice to acknowledge (min)'],
] as const;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function reportCsv(report: OffloadReport): string {
  const lines = [COLUMNS.map(([, title]) => csvCell(title)).join(',')];
  for (const row of report.cases) lines.push(COLUMNS.map(([key]) => csvCell(row[key])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function downloadCsv(report: OffloadReport): void {
  const blob = new Blob([reportCsv(report)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `offload-${report.hospital.name.replace(/[^A-Za-z0-9]+/g, '-')}-${report.from}-to-${report.to}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
