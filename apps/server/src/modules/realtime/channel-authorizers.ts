/**
 * Who may subscribe to what. Each channel kind has one check, registered by the module that owns the
 * thing the channel is about (the transfer module registers `transfer`); a kind with no check is
 * refused. A check answers only yes or no: why not is nobody's business but the server's.
 */
import type { ChannelKind } from '@inbound/contract';
import { isOnTeam, type Principal } from '../auth/principal.js';
import { actsForHospital } from '../cases/case-access.js';

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
  /** The case-access policy's answer for the case's readers (crews, the destination's ED staff). */
  mayReadCase(principal: Principal, caseId: string): Promise<boolean>;
  agencyIdsDeliveringTo(hospitalId: string): Promise<string[]>;
}

/** The checks of the channels whose subjects exist today: case, hospital, hospital-status, broadcast, user. */
export function registerBuiltInChannels(authorizers: ChannelAuthorizers, deps: BuiltInChannelDeps): void {
  authorizers.register('case', (principal, caseId) => deps.mayReadCase(principal, caseId));
  authorizers.register('hospital', (principal, hospitalId) => Promise.resolve(actsForHospital(principal, hospitalId)));
  authorizers.register('hospital-status', async (principal, hospitalId) => {
    if (actsForHospital(principal, hospitalId)) return true;
    const delivering = await deps.agencyIdsDeliveringTo(hospitalId);
    return delivering.some((agencyId) => isOnTeam(principal, agencyId));
  });
  authorizers.register('broadcast', (principal, agencyId) => Promise.resolve(isOnTeam(principal, agencyId)));
  authorizers.register('user', (principal, userId) => Promise.resolve(principal.userId === userId));
}
