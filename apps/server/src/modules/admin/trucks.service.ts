/**
 * An agency's trucks: add, rename, ALS/BLS, remove — organisation admins only, each change audited in
 * its own transaction.
 *
 * Removal: a truck on an open case is refused (409) — the crew is using it and the hospital's board
 * shows it. A truck that closed cases name is retired, not deleted: those cases (and their audit) keep
 * saying which truck it was, and crews no longer see it. A truck never used is deleted outright.
 */
import { randomUUID } from 'node:crypto';
import type { AdminRemoveTruckResponse, AdminTruck, AdminTruckBody, AdminUpdateTruckBody } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { fromFlag, toFlag } from '../../db/json.js';
import { conflict, notFound } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import { requireOrgAdmin } from './agencies.service.js';
import type { Transactional } from '../../db/transactional.js';
import { recordAdminChange } from './audit.js';
import type { AdminTrucksRepository } from './trucks.repository.js';

export interface AdminTrucksServiceDeps {
  /** Built once by the composition root: reads, and the transaction each change commits in. */
  repo: Transactional<AdminTrucksRepository>;
  clock: Clock;
  newId?: () => string;
}

const toTruck = (row: { id: string; name: string; is_als: number }): AdminTruck => ({
  id: row.id,
  name: row.name,
  isALS: fromFlag(row.is_als),
});

const kind = (isALS: boolean) => (isALS ? 'ALS' : 'BLS');

export function createAdminTrucksService({ repo: store, clock, newId = randomUUID }: AdminTrucksServiceDeps) {
  async function requireTruck(repo: AdminTrucksRepository, agencyId: string, truckId: string) {
    if (!(await repo.agencyExists(agencyId))) throw notFound('Agency');
    const row = await repo.findActive(agencyId, truckId);
    if (!row) throw notFound('Truck');
    return row;
  }

  const nameTaken = (name: string) => conflict(`body.name: this agency already has a truck named "${name}"`);

  return {
    async add(principal: Principal, agencyId: string, body: AdminTruckBody): Promise<AdminTruck> {
      requireOrgAdmin(principal);
      return store.transaction(async (repo, trx) => {
        if (!(await repo.agencyExists(agencyId))) throw notFound('Agency');
        if (await repo.sameName(agencyId, body.name, null)) throw nameTaken(body.name);
        const row = {
          id: newId(),
          agency_id: agencyId,
          name: body.name,
          is_als: toFlag(body.isALS),
          position: await repo.nextPosition(agencyId),
        };
        await repo.insert(row);
        const truck = toTruck(row);
        await recordAdminChange(trx, {
          actor: principal,
          action: 'truck.create',
          entityType: 'truck',
          entityId: truck.id,
          summary: `Added ${kind(truck.isALS)} truck ${truck.name} to agency ${agencyId}`,
          after: { ...truck, agencyId },
          at: clock.now(),
        });
        return truck;
      });
    },

    async update(
      principal: Principal,
      agencyId: string,
      truckId: string,
      body: AdminUpdateTruckBody,
    ): Promise<AdminTruck> {
      requireOrgAdmin(principal);
      return store.transaction(async (repo, trx) => {
        const before = toTruck(await requireTruck(repo, agencyId, truckId));
        if (body.name !== undefined && (await repo.sameName(agencyId, body.name, truckId))) throw nameTaken(body.name);
        await repo.update(truckId, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.isALS !== undefined ? { is_als: toFlag(body.isALS) } : {}),
        });
        const after: AdminTruck = { ...before, ...body };
        await recordAdminChange(trx, {
          actor: principal,
          action: 'truck.update',
          entityType: 'truck',
          entityId: truckId,
          summary: `Updated truck ${before.name}${after.name !== before.name ? ` → ${after.name}` : ''} (${kind(after.isALS)})`,
          before: { ...before, agencyId },
          after: { ...after, agencyId },
          at: clock.now(),
        });
        return after;
      });
    },

    async remove(principal: Principal, agencyId: string, truckId: string): Promise<AdminRemoveTruckResponse> {
      requireOrgAdmin(principal);
      try {
        return await removeTruck(principal, agencyId, truckId, false);
      } catch (error) {
        // A crew started a case on the truck between the check and the delete (PostgreSQL, read
        // committed): the delete failed on the case's reference and rolled back — retire it instead.
        if (!isForeignKeyViolation(error)) throw error;
        return removeTruck(principal, agencyId, truckId, true);
      }
    },
  };

  function removeTruck(
    principal: Principal,
    agencyId: string,
    truckId: string,
    referenced: boolean,
  ): Promise<AdminRemoveTruckResponse> {
    return store.transaction(async (repo, trx) => {
      const truck = toTruck(await requireTruck(repo, agencyId, truckId));
      const openCase = await repo.openCaseNumber(truckId);
      if (openCase !== null) {
        throw conflict(`${truck.name} is on open case ${openCase}: remove it once that case is closed.`);
      }
      const used = referenced || (await repo.usedByAnyCase(truckId));
      if (used) await repo.retire(truckId, clock.now().toISOString());
      else await repo.delete(truckId);
      const outcome = used ? 'retired' : 'deleted';
      await recordAdminChange(trx, {
        actor: principal,
        action: 'truck.delete',
        entityType: 'truck',
        entityId: truckId,
        summary: `Removed truck ${truck.name} (${outcome === 'retired' ? 'retired: past cases name it' : 'deleted'})`,
        before: { ...truck, agencyId },
        at: clock.now(),
      });
      return { id: truckId, outcome };
    });
  }
}

/** A write refused by a foreign key (PostgreSQL 23503, SQLite SQLITE_CONSTRAINT_FOREIGNKEY). */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export type AdminTrucksService = ReturnType<typeof createAdminTrucksService>;
