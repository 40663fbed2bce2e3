/**
 * Dispatched cases and the hospital's sent broadcasts (issue 5 item 6; spec §2 Message Center, §3
 * Broadcast message `emsDispatch`, §8 'Warning: Case {code} not available for transfer.').
 *
 * ED staff dispatch a case to an agency delivering to their hospital: the server records the dispatch
 * (its own case number, the hospital as destination, the complaint if chosen, no crew yet) and sends an
 * emsDispatch broadcast carrying that number, in one transaction. A crew of that agency loads it from
 * the Message Center: the claim hands it to the crew's selected team and truck as a case of type
 * hospitalED. docs/decisions/0014-dispatched-cases.md says why it is a call of its own.
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { BroadcastMessage, Id } from './entities.js';
import { Case } from './case.js';

/**
 * Dispatch numbers: two letters and four digits (`QW-5238`), from the case numbers' alphabet without
 * look-alikes. As long as a crew's case number (`KMT-472`, so it fits the crew's header) but of another
 * shape, so the two can never collide.
 */
export const DISPATCH_NUMBER_PATTERN = /^[A-HJ-NP-Z]{2}-[2-9]{4}$/;
export const DISPATCH_NOTES_MAX_LENGTH = 500;

/** Ours (the spec has no words for these moments). */
export const dispatchMessages = {
  closeCaseFirst: 'Close your current case before you load a dispatched case.',
  awaitingCrew: 'Dispatched — awaiting crew',
  cancelled: 'Cancelled by the hospital',
  alreadyClaimed: 'A crew has already loaded this case; it can no longer be cancelled.',
  claimedBy: (truckName: string) => `Claimed by ${truckName}`,
} as const;

export const DispatchParams = z.object({ id: Id });

/** POST /v4/hospitals/{id}/dispatches: the hospital in the path; takes an Idempotency-Key header. */
export const CreateDispatchBody = z.object({
  emsAgencyId: Id,
  /** A complaint of the agency's complaint set; null or absent: the crew chooses. */
  complaintId: Id.nullable().default(null),
  /** Priority and what the crew needs to know; the least patient detail that will do. */
  notes: z.string().trim().max(DISPATCH_NOTES_MAX_LENGTH).default(''),
  urgent: z.boolean().default(false),
});
export type CreateDispatchBody = z.input<typeof CreateDispatchBody>;

export const DispatchStatus = z.enum(['awaitingCrew', 'claimed', 'cancelled']);
export type DispatchStatus = z.infer<typeof DispatchStatus>;

export const DispatchedCase = z.object({
  _id: Id,
  caseNumber: z.string(),
  hospitalId: Id,
  agency: z.object({ _id: Id, name: z.string() }),
  complaint: z
    .object({
      id: Id,
      name: z.string(),
      color: z.string(),
      priority: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    })
    .nullable(),
  notes: z.string(),
  urgent: z.boolean(),
  status: DispatchStatus,
  dispatchedAt: z.iso.datetime(),
  dispatchedByName: z.string(),
  /** Set once a crew has loaded it: the case it became and who has it. */
  claim: z.object({ caseId: Id, truckName: z.string(), agencyName: z.string(), at: z.iso.datetime() }).nullable(),
  /** Set once the hospital cancelled it (only possible before a crew claimed it). */
  cancelled: z.object({ at: z.iso.datetime(), byName: z.string() }).nullable().optional(),
});
export type DispatchedCase = z.infer<typeof DispatchedCase>;

export const CreateDispatchResponse = z.object({ dispatch: DispatchedCase, broadcast: BroadcastMessage });
export type CreateDispatchResponse = z.infer<typeof CreateDispatchResponse>;

/** Unclaimed dispatches, and those claimed in the board's history window, newest first. */
export const DispatchesResponse = z.object({ data: z.array(DispatchedCase) });
export type DispatchesResponse = z.infer<typeof DispatchesResponse>;

/** What the composer offers: the delivering agencies, each with its complaint set's complaints. */
export const DispatchOptionsResponse = z.object({
  agencies: z.array(
    z.object({
      _id: Id,
      name: z.string(),
      complaints: z.array(
        z.object({ id: Id, name: z.string(), priority: z.union([z.literal(1), z.literal(2), z.literal(3)]) }),
      ),
    }),
  ),
});
export type DispatchOptionsResponse = z.infer<typeof DispatchOptionsResponse>;

export const DispatchItemParams = z.object({ id: Id, dispatchId: Id });

export const ClaimDispatchParams = z.object({ caseNumber: z.string().trim().min(1, 'caseNumber is required').max(64) });
/** The crew's selected team and truck, as for a transfer request. */
export const ClaimDispatchBody = z.object({ emsAgencyId: Id, truckId: Id });
export type ClaimDispatchBody = z.infer<typeof ClaimDispatchBody>;

// ---- the hospital's sent broadcasts ----------------------------------------------------------------

export const SENT_BROADCASTS_PAGE_DEFAULT = 20;
export const SENT_BROADCASTS_PAGE_MAX = 100;

export const SentBroadcastsQuery = z.object({
  /** `nextCursor` of the previous page; absent for the newest. */
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(SENT_BROADCASTS_PAGE_MAX).optional(),
});

export const SentBroadcast = BroadcastMessage.extend({
  /** The recipients by name (the hospital may know all of them: it chose them). */
  agencies: z.array(z.object({ _id: Id, name: z.string() })),
  /** Who sent it; null for broadcasts from before senders were recorded. */
  sentByName: z.string().nullable(),
});
export type SentBroadcast = z.infer<typeof SentBroadcast>;

export const SentBroadcastsPage = z.object({ data: z.array(SentBroadcast), nextCursor: z.string().nullable() });
export type SentBroadcastsPage = z.infer<typeof SentBroadcastsPage>;

/** Real-time events on `hospital:{id}` (beside `case.updated`): a colleague sent or dispatched something. */
export const HOSPITAL_EVENTS = { broadcastSent: 'broadcast.sent', dispatchUpdated: 'dispatch.updated' } as const;

export const dispatchRoutes = {
  dispatchOptions: {
    method: 'GET',
    path: '/v4/hospitals/:id/dispatch-options',
    summary: 'Agencies a dispatch may go to, with their complaints (ED staff of the hospital, org admins)',
    auth: true,
    params: DispatchParams,
    response: DispatchOptionsResponse,
  },
  createDispatch: {
    method: 'POST',
    path: '/v4/hospitals/:id/dispatches',
    summary:
      'Dispatch a case to an agency: the case and its emsDispatch broadcast in one transaction (Idempotency-Key)',
    auth: true,
    params: DispatchParams,
    body: CreateDispatchBody,
    response: CreateDispatchResponse,
  },
  dispatches: {
    method: 'GET',
    path: '/v4/hospitals/:id/dispatches',
    summary: "The hospital's dispatched cases: awaiting a crew, and recently claimed (its ED staff, org admins)",
    auth: true,
    params: DispatchParams,
    response: DispatchesResponse,
  },
  cancelDispatch: {
    method: 'POST',
    path: '/v4/hospitals/:id/dispatches/:dispatchId/cancel',
    summary: "Cancel a dispatch no crew has loaded yet; the crews' Message Center shows it cancelled (idempotent)",
    auth: true,
    params: DispatchItemParams,
    response: DispatchedCase,
  },
  claimDispatch: {
    method: 'POST',
    path: '/v4/dispatched-cases/:caseNumber/claim',
    summary: 'A crew of the agency loads a dispatched case on its selected team and truck; answers the case',
    auth: true,
    params: ClaimDispatchParams,
    body: ClaimDispatchBody,
    response: Case,
  },
  sentBroadcasts: {
    method: 'GET',
    path: '/v4/hospitals/:id/broadcasts',
    summary: 'Broadcasts the hospital sent, newest first, by cursor (its ED staff, org admins)',
    auth: true,
    params: DispatchParams,
    query: SentBroadcastsQuery,
    response: SentBroadcastsPage,
  },
} as const satisfies Record<string, RouteDef>;
