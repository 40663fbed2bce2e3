/** Broadcast messages and the agencies each was sent to. Queries only. */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { BroadcastMessage } from '@inbound/contract';
import type { BroadcastIdempotencyKeysTable, BroadcastsTable, DB } from '../../db/schema.js';

export type StoredBroadcastKey = Pick<Selectable<BroadcastIdempotencyKeysTable>, 'request_hash' | 'response'>;

export function createBroadcastsRepository(db: Kysely<DB>) {
  return {
    /**
     * The broadcast, its recipients and the idempotency key of the request that sent it, together or
     * not at all: a racing duplicate fails on the key's primary key and nothing of it is written.
     */
    async insert(
      row: Insertable<BroadcastsTable>,
      agencyIds: readonly string[],
      key: Insertable<BroadcastIdempotencyKeysTable>,
    ): Promise<void> {
      await db.transaction().execute((trx) => writeBroadcast(trx, row, agencyIds, key));
    },

    /** The same writes inside a transaction someone else runs (a dispatch commits its case with them). */
    write: writeBroadcast,

    /** One page of what the hospital sent, newest first, starting after `after` (created_at, id). */
    async sentBy(hospitalId: string, after: { createdAt: string; id: string } | null, limit: number) {
      let query = db.selectFrom('broadcasts').selectAll().where('hospital_id', '=', hospitalId);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      if (rows.length === 0) return [];
      const recipients = await db
        .selectFrom('broadcast_agencies')
        .innerJoin('agencies', 'agencies.id', 'broadcast_agencies.agency_id')
        .select(['broadcast_agencies.broadcast_id', 'agencies.id', 'agencies.name'])
        .where(
          'broadcast_agencies.broadcast_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('agencies.name')
        .execute();
      return rows.map((row) => ({
        ...row,
        agencies: recipients.filter((r) => r.broadcast_id === row.id).map((r) => ({ id: r.id, name: r.name })),
      }));
    },

    async findKey(userId: string, key: string): Promise<StoredBroadcastKey | null> {
      return (
        (await db
          .selectFrom('broadcast_idempotency_keys')
          .select(['request_hash', 'response'])
          .where('user_id', '=', userId)
          .where('key', '=', key)
          .executeTakeFirst()) ?? null
      );
    },

    /** The agencies delivering to the hospital, by name: who its broadcasts may go to. */
    async recipientAgencies(hospitalId: string): Promise<{ id: string; name: string }[]> {
      return db
        .selectFrom('agency_hospitals')
        .innerJoin('agencies', 'agencies.id', 'agency_hospitals.agency_id')
        .select(['agencies.id', 'agencies.name'])
        .where('agency_hospitals.hospital_id', '=', hospitalId)
        .orderBy('agencies.name')
        .orderBy('agencies.id')
        .execute();
    },

    /** Newest first, addressed to any of the agencies. */
    async listForAgencies(agencyIds: readonly string[], limit: number) {
      if (agencyIds.length === 0) return [];
      const rows = await db
        .selectFrom('broadcasts')
        .selectAll()
        .where('id', 'in', (eb) =>
          eb.selectFrom('broadcast_agencies').select('broadcast_id').where('agency_id', 'in', agencyIds),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      if (rows.length === 0) return [];
      const recipients = await db
        .selectFrom('broadcast_agencies')
        .select(['broadcast_id', 'agency_id'])
        .where(
          'broadcast_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('agency_id')
        .execute();
      return rows.map((row) => ({
        ...row,
        agencyIds: recipients.filter((r) => r.broadcast_id === row.id).map((r) => r.agency_id),
      }));
    },

    /** One broadcast as crews receive it (a cancelled dispatch's, sent again with its mark). */
    async message(id: string): Promise<BroadcastMessage | null> {
      const row = await db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      const agencies = await db
        .selectFrom('broadcast_agencies')
        .select('agency_id')
        .where('broadcast_id', '=', id)
        .orderBy('agency_id')
        .execute();
      return {
        _id: row.id,
        timestamp: row.created_at,
        content: row.content,
        urgent: row.urgent === 1,
        type: row.type,
        caseNumber: row.case_number,
        senderOrganizationName: row.sender_organization_name,
        emsAgencies: agencies.map((a) => a.agency_id),
        cancelledAt: row.cancelled_at ?? null,
      };
    },
  };
}

async function writeBroadcast(
  trx: Transaction<DB>,
  row: Insertable<BroadcastsTable>,
  agencyIds: readonly string[],
  key: Insertable<BroadcastIdempotencyKeysTable>,
): Promise<void> {
  await trx.insertInto('broadcasts').values(row).execute();
  await trx
    .insertInto('broadcast_agencies')
    .values(agencyIds.map((agency_id) => ({ broadcast_id: row.id, agency_id })))
    .execute();
  await trx.insertInto('broadcast_idempotency_keys').values(key).execute();
}

export type BroadcastsRepository = ReturnType<typeof createBroadcastsRepository>;
