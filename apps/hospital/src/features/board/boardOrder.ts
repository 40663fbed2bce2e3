import { estimateArrival, type BoardCase, type GeoPoint } from '@inbound/contract';

export interface RankedCase {
  card: BoardCase;
  arrival: { distanceKm: number; etaMinutes: number } | null;
}

/**
 * The board's order: priority 1 first, then everyone else; within each, the soonest estimated arrival
 * first, cases without a position after those with one, then the longest-running first.
 */
export function rankOpenCases(cases: readonly BoardCase[], hospital: GeoPoint | null, now: number): RankedCase[] {
  return cases
    .map((card) => ({ card, arrival: estimateArrival(card.lastLocation, hospital, now) }))
    .sort((a, b) => {
      const p1 = Number(b.card.complaint?.priority === 1) - Number(a.card.complaint?.priority === 1);
      if (p1 !== 0) return p1;
      const etaA = a.arrival?.etaMinutes ?? Number.POSITIVE_INFINITY;
      const etaB = b.arrival?.etaMinutes ?? Number.POSITIVE_INFINITY;
      if (etaA !== etaB) return etaA - etaB;
      return Date.parse(a.card.startedAt) - Date.parse(b.card.startedAt);
    });
}
