/**
 * The crew's hand-over after the close (issue 15 item 3, decision 0038). The crew usually closes the
 * case at the door, long before the ED accepts transfer of care; the wipe rule (decision 0007) then takes
 * every trace of the case off the device, its id and number included. So, while the case is still on
 * the device, its outbox asks for a watch: an opaque random token (nothing derived from the case), bound
 * to the crew user who asked and expiring 2 h later. The device keeps only the token and the hospital's
 * name; Start asks with the token whether the hand-over was accepted and by whom.
 *
 * The outbox retries with the same idempotency key, so the token is derived from it (an HMAC under the
 * server's secret of the user and the key: unguessable, the same on a retry, nothing of the case in it)
 * and the watch stored once. The server keeps the token's SHA-256 only; a token is answered only to the user it was issued to and
 * only before its expiry — another user, an expired or an unknown token all get the same 404.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { HANDOFF_WATCH_MS, type Hospital, type HandoffWatchIssued, type HandoffWatchStatus } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { conflict, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { CaseAccess } from '../cases/case-access.js';
import type { HandoffWatchRepository } from './handoff-watch.repository.js';

/** Without an idempotency key: 192 random bits, base64url. */
const TOKEN_BYTES = 24;

export const handoffWatchMessages = {
  notClosed: 'The case is not closed yet: its hand-over is on the case screen.',
  noDestination: 'The case has no destination on the platform: there is no hand-over to follow.',
} as const;

export const hashHandoffToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface HandoffWatchServiceDeps {
  repo: HandoffWatchRepository;
  clock: Clock;
  access: Pick<CaseAccess, 'requireCrew'>;
  hospitals: { hospitalsByIds(ids: readonly string[]): Promise<Hospital[]> };
  /** The server's secret (the tokens' HMAC key). */
  secret: string;
}

export function createHandoffWatchService(deps: HandoffWatchServiceDeps) {
  const { repo, clock, access } = deps;
  return {
    /** POST /v4/twiageCases/{id}/handoff-watch: a crew of the closed case (its outbox; idempotent by key). */
    async issue(principal: Principal, caseId: string, idempotencyKey: string | null): Promise<HandoffWatchIssued> {
      const row = await access.requireCrew(principal, caseId);
      if (row.arrived_at === null) throw conflict(handoffWatchMessages.notClosed);
      const hospitalId = row.destination_hospital_id;
      const [hospital] = hospitalId ? await deps.hospitals.hospitalsByIds([hospitalId]) : [];
      if (!hospitalId || !hospital || hospital.nonTwiage) throw conflict(handoffWatchMessages.noDestination);
      const now = clock.now();
      const token = idempotencyKey
        ? createHmac('sha256', deps.secret)
            .update(`handoff-watch\n${principal.userId}\n${idempotencyKey}`)
            .digest('base64url')
        : randomBytes(TOKEN_BYTES).toString('base64url');
      await repo.deleteExpired(now.toISOString());
      const expiresAt = await repo.insertOnce({
        token_hash: hashHandoffToken(token),
        user_id: principal.userId,
        case_id: caseId,
        hospital_id: hospitalId,
        hospital_name: hospital.name,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + HANDOFF_WATCH_MS).toISOString(),
      });
      return { token, hospitalName: hospital.name, expiresAt };
    },

    /** POST /v4/handoff-watch/status { token }: the watched hand-over, to the user the token was issued to. */
    async status(principal: Principal, token: string): Promise<HandoffWatchStatus> {
      const found = await repo.find(hashHandoffToken(token), principal.userId, clock.now().toISOString());
      if (!found) throw notFound('Handoff watch');
      // A hand-over at another hospital (the case went elsewhere after the close) is not this watch's.
      const here = found.destination_hospital_id === found.hospital_id;
      return {
        hospitalName: found.hospital_name,
        expiresAt: found.expires_at,
        handoff:
          here && found.handoff_at !== null && found.handoff_by_name !== null
            ? { byName: found.handoff_by_name, at: found.handoff_at }
            : null,
      };
    },
  };
}

export type HandoffWatchService = ReturnType<typeof createHandoffWatchService>;
