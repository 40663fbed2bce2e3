/** What changed between an audit entry's before and after snapshots, field by field, as display text. */
export interface DiffRow {
  field: string;
  before: string | null;
  after: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function display(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '—' : value;
  if (typeof value === 'number' || typeof value === 'boolean')
    return value === true ? 'yes' : value === false ? 'no' : String(value);
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(display).join(', ');
  return JSON.stringify(value);
}

/** Fields whose value differs (all of `after` for a creation, all of `before` for a removal). */
export function auditDiff(before: unknown, after: unknown): DiffRow[] {
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((field) => JSON.stringify(b[field]) !== JSON.stringify(a[field]))
    .map((field) => ({
      field,
      before: field in b ? display(b[field]) : null,
      after: field in a ? display(a[field]) : null,
    }));
}
