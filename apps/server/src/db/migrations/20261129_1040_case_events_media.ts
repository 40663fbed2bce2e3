/**
 * A case's media events (issue 11): the board card's media count, the case's uploads and the relay's cards
 * read them. Without an index each read walked every event of its cases (the unique (case_id, seq) index,
 * then each row for its type): ~3 ms per relay batch of 100 cases of ~20 events, and 742 µs per board read
 * of 30 open cases of 200 events (144 µs with this index), growing with the cases' length. The index holds
 * the media events alone: the other events' inserts (nearly all) pay ~3 µs for its condition, where a full
 * (case_id, type) index cost each ~10 µs.
 *
 * The condition is written out here, frozen with the migration; `db/media-events.ts` writes the queries'
 * condition the same way, and a test checks that the planner uses this index for them.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('case_events_media_idx')
    .on('case_events')
    .columns(['case_id', 'type'])
    .where(sql<boolean>`type in ('photo', 'id', 'ekg', 'video', 'voicememo')`)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('case_events_media_idx').execute();
}
