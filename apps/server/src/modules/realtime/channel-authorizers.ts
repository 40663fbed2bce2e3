/**
 * Who may subscribe to what. Each channel kind has one check, registered by the module that owns the
 * thing the channel is about (the transfer module registers `transfer`); a kind with no check is
 * refused. A check answers only yes or no: why not is nobody's business but the server's.
 */
import type { ChannelKind } from '@inbound/contract';
import { isOnTeam, isOrgAdmin, type Principal } from '../auth/principal.js';

export type ChannelAuthorizer = (principal: Principal, id: string) => Promise<boolean>;

export interface ChannelAuthorizers {
  register(kind: ChannelKind, check: ChannelAuthorizer): void;
  mayAccess(principal: Principal, kind: ChannelKind, id: string): Promise<boolean>;
}

export function createChannelAuthorizers(): ChannelAuthorizers {
  const checks = new Map<ChannelKind, ChannelAuthorizer>();
  return {
    register(kind, check) {
      if (checks.has(kind)) throw new Error(`a check for ${kind} channels is registered already`);
      checks.set(kind, check);
    },
    async mayAccess(principal, kind, id) {
      const check = checks.get(kind);
      return check ? check(principal, id) : false;
    },
  };
}

export interface BuiltInChannelDeps {
  /** The case's access-list role of the user (null: not on it) and its destination; null when no such case. */
  caseAccess(
    caseId: string,
    userId: string,
  ): Promise<{ role: string | null; destinationHospitalId: string | null } | null>;
  /** Whether the hospital is on the platform (false also for an unknown one). */
  hospitalOnPlatform(hospitalId: string): Promise<boolean>;
  agencyIdsDeliveringTo(hospitalId: string): Promise<string[]>;
}

const isHospitalStaff = (principal: Principal, hospitalId: string) =>
  principal.edHospitalIds.includes(hospitalId) || isOrgAdmin(principal);

/** The checks of the channels whose subjects exist today: case, hospital, hospital-status, broadcast, user. */
export function registerBuiltInChannels(authorizers: ChannelAuthorizers, deps: BuiltInChannelDeps): void {
  authorizers.register('case', async (principal, caseId) => {
    const found = await deps.caseAccess(caseId, principal.userId);
    if (!found) return false;
    if (found.role !== null) return true;
    // ED staff of the destination see the case coming in — never a hospital not on the platform.
    const hospitalId = found.destinationHospitalId;
    if (!hospitalId || !principal.edHospitalIds.includes(hospitalId)) return false;
    return deps.hospitalOnPlatform(hospitalId);
  });
  authorizers.register('hospital', (principal, hospitalId) => Promise.resolve(isHospitalStaff(principal, hospitalId)));
  authorizers.register('hospital-status', async (principal, hospitalId) => {
    if (isHospitalStaff(principal, hospitalId)) return true;
    const delivering = await deps.agencyIdsDeliveringTo(hospitalId);
    return delivering.some((agencyId) => isOnTeam(principal, agencyId));
  });
  authorizers.register('broadcast', (principal, agencyId) => Promise.resolve(isOnTeam(principal, agencyId)));
  authorizers.register('user', (principal, userId) => Promise.resolve(principal.userId === userId));
}
