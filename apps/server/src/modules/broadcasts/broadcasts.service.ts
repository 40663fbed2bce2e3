/**
 * Broadcasts to a user's teams (read-only for now; sending arrives with the hospital console). A user
 * sees a broadcast when it was sent to any of their teams; the recipient list shows only those teams,
 * so one agency never learns which other agencies a message went to.
 */
import type { BroadcastMessage } from '@inbound/contract';
import { fromFlag } from '../../db/json.js';
import type { Principal } from '../auth/principal.js';
import type { BroadcastsRepository } from './broadcasts.repository.js';

export const BROADCAST_LIST_LIMIT = 100;
export const broadcastChannel = (agencyId: string) => `broadcast:${agencyId}`;

export function createBroadcastsService({ repo }: { repo: BroadcastsRepository }) {
  return {
    channels(principal: Principal): Promise<{ channels: { broadcast: string[] } }> {
      return Promise.resolve({ channels: { broadcast: principal.teamIds.map(broadcastChannel) } });
    },

    async list(principal: Principal): Promise<{ data: BroadcastMessage[] }> {
      const rows = await repo.listForAgencies(principal.teamIds, BROADCAST_LIST_LIMIT);
      return {
        data: rows.map((row) => ({
          _id: row.id,
          timestamp: row.created_at,
          content: row.content,
          urgent: fromFlag(row.urgent),
          type: row.type,
          caseNumber: row.case_number,
          senderOrganizationName: row.sender_organization_name,
          emsAgencies: row.agencyIds.filter((id) => principal.teamIds.includes(id)),
        })),
      };
    },
  };
}

export type BroadcastsService = ReturnType<typeof createBroadcastsService>;
