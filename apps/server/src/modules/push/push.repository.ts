/** Browser push subscriptions by topic. Queries only. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export function createPushRepository(db: Kysely<DB>) {
  return {
    /** One row per (topic, endpoint): a browser re-subscribing the same topic replaces its keys and owner. */
    async upsert(row: {
      id: string;
      user_id: string;
      topic: string;
      endpoint: string;
      p256dh: string;
      auth: string;
      created_at: string;
    }) {
      await db
        .insertInto('push_subscriptions')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['topic', 'endpoint']).doUpdateSet({ user_id: row.user_id, p256dh: row.p256dh, auth: row.auth }),
        )
        .execute();
    },

    async remove(userId: string, topic: string, endpoint: string): Promise<void> {
      await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .where('topic', '=', topic)
        .where('endpoint', '=', endpoint)
        .execute();
    },

    /** An endpoint the push service says is gone (404/410): every topic it was subscribed to. */
    async removeEndpoint(endpoint: string): Promise<void> {
      await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();
    },

    forUsersAndTopics(userIds: readonly string[], topics: readonly string[]) {
      if (userIds.length === 0 || topics.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('push_subscriptions')
        .select(['user_id', 'topic', 'endpoint', 'p256dh', 'auth'])
        .where('user_id', 'in', userIds)
        .where('topic', 'in', topics)
        .execute();
    },
  };
}

export type PushRepository = ReturnType<typeof createPushRepository>;
