/**
 * Arrival, hand-over and diversion (issue 15 items 2–4): the truck reaching its destination (by the
 * hospital's geofence, the crew's close or the ED's button), the ED accepting transfer of care (the
 * end of "wall time"), the ED diverting an inbound case, each hospital's settings for them, and the
 * per-hospital offload report. Ours — the spec describes none of it.
 */
import { z } from 'zod';
import { Id } from './entities.js';

// The board's params, repeated here: board.ts imports this module (its card shows the arrival).
const BoardParams = z.object({ id: Id });
const BoardCaseParams = z.object({ id: Id, caseId: Id });

/** How an arrival was marked. */
export const ArrivalSource = z.enum(['geofence', 'crew', 'hospital']);
export type ArrivalSource = z.infer<typeof ArrivalSource>;

/** The truck reached the destination: when, how, and who marked it (null for the geofence). */
export const Arrival = z.object({
  at: z.iso.datetime(),
  source: ArrivalSource,
  byName: z.string().nullable(),
});
export type Arrival = z.infer<typeof Arrival>;

/** The ED accepted transfer of care: who, when. */
export const Handoff = z.object({ byName: z.string(), at: z.iso.datetime() });
export type Handoff = z.infer<typeof Handoff>;

/** The destination ED diverted the case and waits for the crew to choose another hospital. */
export const Diversion = z.object({ reason: z.string(), byName: z.string(), at: z.iso.datetime() });
export type Diversion = z.infer<typeof Diversion>;

/** Geofence radius when a hospital's admin set none, metres (an ambulance bay and its driveway). */
export const DEFAULT_ARRIVAL_RADIUS_M = 150;
export const ARRIVAL_RADIUS_MIN_M = 30;
export const ARRIVAL_RADIUS_MAX_M = 2_000;
/**
 * Hysteresis: once inside the radius, the truck counts as still inside until it is farther than
 * radius × this factor, so a position jittering across the boundary is one visit, not many.
 */
export const ARRIVAL_EXIT_FACTOR = 1.3;
/**
 * A visit becomes an arrival after this long inside (a later position still within the exit distance):
 * a truck driving past a hospital crosses its fence in well under a minute.
 */
export const ARRIVAL_DWELL_SECONDS = 60;
/** A fix less precise than this many radii says nothing about being inside, so it is not used. */
export const ARRIVAL_MAX_ACCURACY_RADII = 1;

/** Offload time after which the card turns amber and the charge nurse is alerted, when none is set. */
export const DEFAULT_OFFLOAD_ALERT_MINUTES = 30;
export const OFFLOAD_ALERT_MIN_MINUTES = 5;
export const OFFLOAD_ALERT_MAX_MINUTES = 240;

export const DIVERSION_REASON_MAX_LENGTH = 200;

/** A hospital's arrival settings (its admin sets them; defaults until then). */
export const ArrivalSettings = z.object({
  arrivalRadiusM: z.number().int().min(ARRIVAL_RADIUS_MIN_M).max(ARRIVAL_RADIUS_MAX_M),
  offloadAlertMinutes: z.number().int().min(OFFLOAD_ALERT_MIN_MINUTES).max(OFFLOAD_ALERT_MAX_MINUTES),
});
export type ArrivalSettings = z.infer<typeof ArrivalSettings>;

export const DivertBody = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'reason is required')
    .max(DIVERSION_REASON_MAX_LENGTH, `reason is at most ${DIVERSION_REASON_MAX_LENGTH} characters`),
});
export type DivertBody = z.infer<typeof DivertBody>;

/** The answer of the ED's arrival, hand-over and diversion calls: the case's state after it. */
export const ArrivalStateResponse = z.object({
  caseId: Id,
  arrival: Arrival.nullable(),
  handoff: Handoff.nullable(),
  diversion: Diversion.nullable(),
});
export type ArrivalStateResponse = z.infer<typeof ArrivalStateResponse>;

/** A case that left this hospital's board for another destination (the old board says where to). */
export const DivertedAway = z.object({
  caseId: Id,
  caseNumber: z.string(),
  toHospitalName: z.string(),
  /** The ED's reason when this hospital diverted it; null when the crew changed destination itself. */
  reason: z.string().nullable(),
  at: z.iso.datetime(),
});
export type DivertedAway = z.infer<typeof DivertedAway>;

export const DivertedAwayResponse = z.object({ divertedAway: z.array(DivertedAway) });
export type DivertedAwayResponse = z.infer<typeof DivertedAwayResponse>;

/** Longest report period, days (bounds what one request can make the server read). */
export const REPORT_MAX_DAYS = 92;
export const REPORT_MAX_CASES = 10_000;
const Day = z.iso.date();

export const OffloadReportQuery = z
  .object({
    from: Day,
    to: Day,
    /** IANA time zone the days and hours are counted in (the console sends its own). */
    tz: z
      .string()
      .max(64)
      .default('UTC')
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'tz is not a known time zone'),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < REPORT_MAX_DAYS, {
    message: `the period is at most ${REPORT_MAX_DAYS} days`,
    path: ['to'],
  });
export type OffloadReportQuery = z.infer<typeof OffloadReportQuery>;

const Minutes = z.number().nullable();

/** One arrived case of the report (the CSV export's rows). */
export const OffloadReportCase = z.object({
  caseId: Id,
  caseNumber: z.string(),
  /** When this hospital was first named the destination (the pre-notification). */
  notifiedAt: z.iso.datetime().nullable(),
  acknowledgedAt: z.iso.datetime().nullable(),
  arrivedAt: z.iso.datetime(),
  arrivalSource: ArrivalSource,
  handoffAt: z.iso.datetime().nullable(),
  handoffByName: z.string().nullable(),
  /** Arrival → hand-over (wall time); null while not handed over. */
  offloadMinutes: Minutes,
  /** Notice → arrival. */
  leadMinutes: Minutes,
  /** Notice → acknowledge. */
  acknowledgeMinutes: Minutes,
});
export type OffloadReportCase = z.infer<typeof OffloadReportCase>;

const Stats = {
  arrivals: z.number().int(),
  offloadMedian: Minutes,
  offloadP90: Minutes,
  leadMedian: Minutes,
  acknowledgeMedian: Minutes,
};

export const OffloadReport = z.object({
  hospital: z.object({ id: Id, name: z.string() }),
  from: Day,
  to: Day,
  tz: z.string(),
  offloadAlertMinutes: z.number().int(),
  /** One row per day of the period, in order (days without arrivals too). */
  byDay: z.array(z.object({ day: Day, ...Stats })),
  /** 24 rows, hour 0–23 of the arrival; `arrivalsPerDay`: arrivals in that hour ÷ days of the period. */
  byHour: z.array(z.object({ hour: z.number().int(), arrivalsPerDay: z.number(), ...Stats })),
  total: z.object(Stats),
  cases: z.array(OffloadReportCase),
});
export type OffloadReport = z.infer<typeof OffloadReport>;

export const arrivalRoutes = {
  markArrived: {
    method: 'POST',
    path: '/v4/hospitals/:id/inbound/:caseId/arrived',
    summary: 'The destination ED marks the truck arrived (idempotent: the first arrival stands); the crew is told',
    auth: true,
    params: BoardCaseParams,
    response: ArrivalStateResponse,
  },
  acceptHandoff: {
    method: 'POST',
    path: '/v4/hospitals/:id/inbound/:caseId/handoff',
    summary: 'The destination ED accepts transfer of care (marks arrival too if not yet); the crew is told who',
    auth: true,
    params: BoardCaseParams,
    response: ArrivalStateResponse,
  },
  divertCase: {
    method: 'POST',
    path: '/v4/hospitals/:id/inbound/:caseId/divert',
    summary: 'The destination ED diverts an inbound case with a reason; the crew is alerted to choose another',
    auth: true,
    params: BoardCaseParams,
    body: DivertBody,
    response: ArrivalStateResponse,
  },
  divertedAway: {
    method: 'GET',
    path: '/v4/hospitals/:id/diverted-away',
    summary: 'Cases that left this hospital for another destination in the board history window (ED staff)',
    auth: true,
    params: BoardParams,
    response: DivertedAwayResponse,
  },
  arrivalSettings: {
    method: 'GET',
    path: '/v4/hospitals/:id/arrival-settings',
    summary: "The hospital's geofence radius and offload alert threshold (its ED staff, org admins)",
    auth: true,
    params: BoardParams,
    response: ArrivalSettings,
  },
  updateArrivalSettings: {
    method: 'PUT',
    path: '/v4/hospitals/:id/arrival-settings',
    summary: "Set the hospital's geofence radius and offload alert threshold (organisation admins)",
    auth: true,
    params: BoardParams,
    body: ArrivalSettings,
    response: ArrivalSettings,
  },
  offloadReport: {
    method: 'GET',
    path: '/v4/hospitals/:id/reports/offload',
    summary: 'Offload (wall) time, arrivals, notice lead time and acknowledge time per day and hour (ED staff)',
    auth: true,
    params: BoardParams,
    query: OffloadReportQuery,
    response: OffloadReport,
  },
} as const;

// ---- the crew's hand-over after the close (decision 0038) ----------------------------------------

/** How long after the close the crew's device may follow the hand-over with its token. */
export const HANDOFF_WATCH_MS = 2 * 60 * 60_000;

/**
 * What the crew's device keeps after the close: an opaque token (no case id or number in it, nothing
 * derived from them) and the hospital's name. The server knows which case the token follows.
 */
export const HandoffWatchIssued = z.object({
  token: z.string(),
  hospitalName: z.string(),
  expiresAt: z.iso.datetime(),
});
export type HandoffWatchIssued = z.infer<typeof HandoffWatchIssued>;

/** The token goes in the body, never in a URL (URLs end up in logs). */
export const HandoffWatchStatusBody = z.object({
  token: z.string().trim().min(1, 'token is required').max(100, 'token is at most 100 characters'),
});

export const HandoffWatchStatus = z.object({
  hospitalName: z.string(),
  expiresAt: z.iso.datetime(),
  /** Null until the ED accepts transfer of care. */
  handoff: Handoff.nullable(),
});
export type HandoffWatchStatus = z.infer<typeof HandoffWatchStatus>;

export const handoffWatchRoutes = {
  issueHandoffWatch: {
    method: 'POST',
    path: '/v4/twiageCases/:id/handoff-watch',
    summary: 'A crew of the closed case gets an opaque token to follow its hand-over for 2 h (idempotent)',
    auth: true,
    params: z.object({ id: Id }),
    response: HandoffWatchIssued,
  },
  handoffWatchStatus: {
    method: 'POST',
    path: '/v4/handoff-watch/status',
    summary: 'The hand-over the token follows: accepted by whom and when (the crew user it was issued to)',
    auth: true,
    body: HandoffWatchStatusBody,
    response: HandoffWatchStatus,
  },
} as const;
