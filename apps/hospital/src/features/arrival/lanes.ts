/**
 * Which lane of the board a card is in (issue 15): Inbound until the truck arrives; Arrived (the
 * offload timer runs) from arrival until the ED accepts the hand-over; history after that.
 */
import type { BoardCase } from '@inbound/contract';

export const isOffloading = (card: BoardCase): boolean => card.arrival != null && card.handoff == null;
export const isInbound = (card: BoardCase): boolean => card.arrival == null;

/** Minutes since the arrival at `now`. */
export const offloadMinutes = (card: BoardCase, now: number): number =>
  card.arrival ? (now - Date.parse(card.arrival.at)) / 60_000 : 0;

export const isOverThreshold = (card: BoardCase, now: number, thresholdMinutes: number): boolean =>
  isOffloading(card) && offloadMinutes(card, now) >= thresholdMinutes;

/** A running timer: "4:07", "1:02:03". */
export function formatTimer(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export const ARRIVAL_SOURCE_LABEL = {
  geofence: 'by GPS at the door',
  crew: 'closed by the crew',
  hospital: 'marked by the ED',
} as const;
