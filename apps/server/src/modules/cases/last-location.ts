import type { CaseRow } from '../../db/schema.js';

/** The case's latest reported position, or null before the first location update. */
export function lastLocationOf(
  row: Pick<CaseRow, 'last_latitude' | 'last_longitude' | 'last_location_at'>,
): { latitude: number; longitude: number; recordedAt: string } | null {
  if (row.last_latitude === null || row.last_longitude === null || row.last_location_at === null) return null;
  // PostgreSQL answers numeric columns as strings.
  return {
    latitude: Number(row.last_latitude),
    longitude: Number(row.last_longitude),
    recordedAt: row.last_location_at,
  };
}
