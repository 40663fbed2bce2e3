import type { DivertedAway } from '@inbound/contract';
import { ApiError } from '../../lib/api';

export const isNotFound = (error: Error): boolean => error instanceof ApiError && error.status === 404;

/**
 * Why an open case detail was refused: the case went to another hospital (diverted, or the crew chose
 * another) — its latest "no longer coming here" row — or null when the refusal is anything else.
 */
export function leftForElsewhere(
  error: Error,
  caseId: string,
  rows: readonly DivertedAway[] | undefined,
): DivertedAway | null {
  if (!isNotFound(error) || !rows) return null;
  const mine = rows.filter((r) => r.caseId === caseId).sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return mine[0] ?? null;
}
