/**
 * Charge nurses (issue 15 item 3, decision 0038): a hospital's admin designates some of its ED staff as
 * charge nurses. When a truck waits at the door past the hospital's offload threshold, those users get
 * a Web Push and an alert in every console they have open — once per case and arrival, not on every
 * tick — while everybody else sees the amber card on the board. A hospital with no charge nurse keeps
 * the banner on every console of its board (the alert must reach somebody).
 */
import { z } from 'zod';
import { Id } from './entities.js';

export const CHARGE_NURSES_MAX = 50;

export const chargeNurseMessages = {
  notStaff: (name: string) => `userIds: ${name} is not on this hospital's ED staff list.`,
  listedTwice: 'userIds: a person is listed twice',
} as const;

const Person = z.object({ userId: Id, name: z.string() });

export const ChargeNursesResponse = z.object({
  /** The designated charge nurses, by name. */
  chargeNurses: z.array(Person),
  /** The hospital's ED staff: who may be designated (the admin's picker). */
  staff: z.array(Person),
});
export type ChargeNursesResponse = z.infer<typeof ChargeNursesResponse>;

export const ChargeNursesBody = z.object({
  userIds: z
    .array(Id)
    .max(CHARGE_NURSES_MAX, `userIds lists at most ${CHARGE_NURSES_MAX} people`)
    .refine((ids) => new Set(ids).size === ids.length, chargeNurseMessages.listedTwice),
});
export type ChargeNursesBody = z.infer<typeof ChargeNursesBody>;

/** A truck waiting past the threshold, as a charge nurse's console lists it (no patient data). */
export const OffloadAlert = z.object({
  caseId: Id,
  caseNumber: z.string(),
  hospitalId: Id,
  hospitalName: z.string(),
  truckName: z.string(),
  arrivedAt: z.iso.datetime(),
  thresholdMinutes: z.number().int(),
  alertedAt: z.iso.datetime(),
});
export type OffloadAlert = z.infer<typeof OffloadAlert>;

export const OffloadAlertsResponse = z.object({ data: z.array(OffloadAlert) });
export type OffloadAlertsResponse = z.infer<typeof OffloadAlertsResponse>;

const HospitalParams = z.object({ id: Id });

export const chargeNurseRoutes = {
  chargeNurses: {
    method: 'GET',
    path: '/v4/hospitals/:id/charge-nurses',
    summary: "The hospital's charge nurses and the ED staff who may be designated (its ED staff, org admins)",
    auth: true,
    params: HospitalParams,
    response: ChargeNursesResponse,
  },
  setChargeNurses: {
    method: 'PUT',
    path: '/v4/hospitals/:id/charge-nurses',
    summary: "An org admin designates the hospital's charge nurses among its ED staff (the whole list)",
    auth: true,
    params: HospitalParams,
    body: ChargeNursesBody,
    response: ChargeNursesResponse,
  },
  myOffloadAlerts: {
    method: 'GET',
    path: '/v4/offload-alerts/mine',
    summary: 'Trucks waiting past the threshold at the hospitals where the signed-in user is charge nurse',
    auth: true,
    response: OffloadAlertsResponse,
  },
} as const;
