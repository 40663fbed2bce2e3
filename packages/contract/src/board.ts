/**
 * The hospital console's inbound board and case detail (issue 5): what a board card needs, a case's
 * full record as the destination ED reads it, and the ED's acknowledgement. Ours — the spec describes
 * the crew side only. Distance and ETA are estimates from straight-line geometry (see `estimateArrival`).
 */
import { z } from 'zod';
import { AgePeriod, Gender, MediaCounts, PatientInfoEntry, TagFieldValue } from './case.js';
import { GeoPoint, HexColor, Id } from './entities.js';
import { RATING_STARS } from './constants.js';
import { Arrival, Diversion, Handoff } from './arrival.js';

export const BoardParams = z.object({ id: Id });
export const BoardCaseParams = z.object({ id: Id, caseId: Id });

export const BoardPriority = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type BoardPriority = z.infer<typeof BoardPriority>;

export const TimedPoint = GeoPoint.extend({ recordedAt: z.iso.datetime() });
export type TimedPoint = z.infer<typeof TimedPoint>;

/** A selected tag with its newest values (data-enabled tags; empty for plain tags). */
export const BoardTag = z.object({
  id: Id,
  name: z.string(),
  fields: z.array(TagFieldValue),
  updatedAt: z.iso.datetime().nullable(),
});
export type BoardTag = z.infer<typeof BoardTag>;

export const Acknowledgement = z.object({ byName: z.string(), at: z.iso.datetime() });
export type Acknowledgement = z.infer<typeof Acknowledgement>;

export const BoardCase = z.object({
  id: Id,
  caseNumber: z.string(),
  complaint: z.object({ id: Id, name: z.string(), color: HexColor, priority: BoardPriority }).nullable(),
  tags: z.array(BoardTag),
  age: z.number().int().nullable(),
  agePeriod: AgePeriod,
  gender: Gender.nullable(),
  agency: z.object({ id: Id, name: z.string() }),
  truck: z.object({ id: Id, name: z.string(), isALS: z.boolean() }),
  startedAt: z.iso.datetime(),
  arrivedAt: z.iso.datetime().nullable(),
  closedAt: z.iso.datetime().nullable(),
  lastLocation: TimedPoint.nullable(),
  acknowledgement: Acknowledgement.nullable(),
  /** Crew messages the hospital has not read yet. */
  unreadChat: z.number().int(),
  mediaCount: z.number().int(),
  /** Issue 15: the truck reached this hospital (geofence, crew's close, ED's button); null: not yet. */
  arrival: Arrival.nullable().optional(),
  /** The ED accepted transfer of care: the offload ("wall") time ends. */
  handoff: Handoff.nullable().optional(),
  /** This ED diverted the case; the crew is choosing another destination. */
  diversion: Diversion.nullable().optional(),
});
export type BoardCase = z.infer<typeof BoardCase>;

export const BoardResponse = z.object({
  hospital: z.object({ id: Id, name: z.string(), location: GeoPoint.nullable() }),
  /** Open cases coming to the hospital. */
  open: z.array(BoardCase),
  /** Cases that arrived (closed) in the last `BOARD_HISTORY_HOURS`, newest first. */
  history: z.array(BoardCase),
});
export type BoardResponse = z.infer<typeof BoardResponse>;

export const CaseTimelineEntry = z.object({
  seq: z.number().int(),
  type: z.string(),
  at: z.iso.datetime(),
  /** When the crew's device made the change (it may have been offline), if it said. */
  clientAt: z.iso.datetime().nullable(),
  actorName: z.string(),
  /** What changed, as recorded (tag ids resolved to names where known). */
  detail: z.record(z.string(), z.unknown()),
});
export type CaseTimelineEntry = z.infer<typeof CaseTimelineEntry>;

export const BoardCaseDetail = BoardCase.extend({
  hospital: BoardResponse.shape.hospital,
  /** Every save of every data-enabled tag, oldest first per tag. */
  tagHistory: z.array(
    z.object({
      id: Id,
      name: z.string(),
      values: z.array(z.object({ fields: z.array(TagFieldValue), updatedAt: z.iso.datetime() })),
    }),
  ),
  patientInfo: z.array(PatientInfoEntry.extend({ name: z.string() })),
  mediaCounts: MediaCounts,
  route: z.array(TimedPoint),
  timeline: z.array(CaseTimelineEntry),
});
export type BoardCaseDetail = z.infer<typeof BoardCaseDetail>;

/**
 * A crew's rating of the hand-over (`POST /v4/twiageCases/{id}/case-feedback`, issue 5 item 7) as the
 * destination ED reads it: stars out of `RATING_STARS`, the note, who sent it (and their agency), when.
 */
export const InboundCaseFeedback = z.object({
  id: Id,
  rating: z.number().int().min(1).max(RATING_STARS),
  notes: z.string(),
  byName: z.string(),
  agencyName: z.string(),
  createdAt: z.iso.datetime(),
});
export type InboundCaseFeedback = z.infer<typeof InboundCaseFeedback>;
/** Oldest first. */
export const InboundCaseFeedbackResponse = z.object({ feedback: z.array(InboundCaseFeedback) });
export type InboundCaseFeedbackResponse = z.infer<typeof InboundCaseFeedbackResponse>;

export const AcknowledgeResponse = z.object({ caseId: Id, acknowledgement: Acknowledgement });
export type AcknowledgeResponse = z.infer<typeof AcknowledgeResponse>;

export const BOARD_HISTORY_HOURS = 12;

/** The average road speed the ETA estimate assumes (urban emergency driving), km/h. */
export const ETA_ASSUMED_SPEED_KMH = 55;
/** Roads are longer than the straight line; a common detour factor for city grids. */
export const ETA_ROAD_FACTOR = 1.3;

/** Great-circle distance in kilometres (haversine). */
export function straightLineKm(a: GeoPoint, b: GeoPoint): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Straight-line distance and an ETA estimate in whole minutes from the crew's last position: no
 * routing engine, so the ETA is the straight line × road factor at an assumed speed, counted from
 * when the position was recorded. Null when either position is unknown.
 */
export function estimateArrival(
  from: TimedPoint | null,
  to: GeoPoint | null,
  now: number,
): { distanceKm: number; etaMinutes: number } | null {
  if (!from || !to) return null;
  const distanceKm = straightLineKm(from, to);
  const travelMs = ((distanceKm * ETA_ROAD_FACTOR) / ETA_ASSUMED_SPEED_KMH) * 3_600_000;
  const remainingMs = Math.max(0, Date.parse(from.recordedAt) + travelMs - now);
  return { distanceKm, etaMinutes: Math.ceil(remainingMs / 60_000) };
}
