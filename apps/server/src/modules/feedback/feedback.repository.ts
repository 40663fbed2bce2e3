/** General app feedback. Queries only. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export function createFeedbackRepository(db: Kysely<DB>) {
  return {
    async insert(entry: {
      id: string;
      userId: string;
      message: string;
      client: string;
      clientVersion: string;
      createdAt: string;
    }) {
      await db
        .insertInto('feedback')
        .values({
          id: entry.id,
          user_id: entry.userId,
          message: entry.message,
          client: entry.client,
          client_version: entry.clientVersion,
          created_at: entry.createdAt,
        })
        .execute();
    },

    findById(id: string) {
      return db.selectFrom('feedback').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}

export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
