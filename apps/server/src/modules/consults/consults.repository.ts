/**
 * The `consults` and `consult_participants` tables: a consult's room (one live per case) and every
 * join of it. Joins count under the consult row's lock (an update of it first), so two joins at once
 * cannot both take the last place.
 */
import type { Kysely, Transaction } from 'kysely';
import type { ConsultParticipantsTable, ConsultsTable, DB } from '../../db/schema.js';

export type ConsultRow = ConsultsTable;
export type ParticipantRow = ConsultParticipantsTable;

export type JoinOutcome = 'joined' | 'over' | 'full' | 'tooManyJoins';

/** Thrown inside the join's transaction to roll back the count it bumped. */
class JoinRefused extends Error {
  constructor(readonly outcome: JoinOutcome) {
    super(outcome);
  }
}

export function createConsultsRepository(db: Kysely<DB>) {
  return {
    async insert(row: ConsultRow): Promise<void> {
      await db.insertInto('consults').values(row).execute();
    },

    async findById(id: string): Promise<ConsultRow | null> {
      return (await db.selectFrom('consults').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    async findLive(caseId: string): Promise<ConsultRow | null> {
      return (
        (await db
          .selectFrom('consults')
          .selectAll()
          .where('case_id', '=', caseId)
          .where('state', '=', 'live')
          .executeTakeFirst()) ?? null
      );
    },

    /** The consult's joins in join order; `liveOnly`: those still in the room. */
    participants(consultId: string, liveOnly: boolean, executor: Kysely<DB> | Transaction<DB> = db) {
      let query = executor.selectFrom('consult_participants').selectAll().where('consult_id', '=', consultId);
      if (liveOnly) query = query.where('left_at', 'is', null);
      return query.orderBy('seq').execute();
    },

    async findParticipant(id: string): Promise<ParticipantRow | null> {
      return (await db.selectFrom('consult_participants').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },

    /** Adds the participant unless the consult ended, is full, or was joined too often. */
    async join(participant: Omit<ParticipantRow, 'seq'>, maxLive: number, maxJoins: number): Promise<JoinOutcome> {
      try {
        return await db.transaction().execute(async (trx) => {
          const bumped = await trx
            .updateTable('consults')
            .set((eb) => ({ joins: eb('joins', '+', 1) }))
            .where('id', '=', participant.consult_id)
            .where('state', '=', 'live')
            .returning('joins')
            .executeTakeFirst();
          if (!bumped) throw new JoinRefused('over');
          if (Number(bumped.joins) > maxJoins) throw new JoinRefused('tooManyJoins');
          const live = await trx
            .selectFrom('consult_participants')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('consult_id', '=', participant.consult_id)
            .where('left_at', 'is', null)
            .executeTakeFirstOrThrow();
          if (Number(live.n) >= maxLive) throw new JoinRefused('full');
          await trx
            .insertInto('consult_participants')
            .values({ ...participant, seq: Number(bumped.joins) })
            .execute();
          return 'joined' as const;
        });
      } catch (error) {
        if (error instanceof JoinRefused) return error.outcome;
        throw error;
      }
    },

    /** The participant is still there. */
    async touch(id: string, at: string): Promise<void> {
      await db
        .updateTable('consult_participants')
        .set({ last_seen_at: at })
        .where('id', '=', id)
        .where('left_at', 'is', null)
        .execute();
    },

    /** The participant left, once: false when it had left already. */
    async leave(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('consult_participants')
        .set({ left_at: at })
        .where('id', '=', id)
        .where('left_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** → ended, once: false when it had ended already. */
    async end(trx: Transaction<DB>, id: string, at: string): Promise<boolean> {
      const result = await trx
        .updateTable('consults')
        .set({ state: 'ended', ended_at: at })
        .where('id', '=', id)
        .where('state', '=', 'live')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type ConsultsRepository = ReturnType<typeof createConsultsRepository>;
