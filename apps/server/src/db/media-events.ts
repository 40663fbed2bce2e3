/**
 * Which case events are media (photo, ID, EKG, video, voice memo): the board card's media count and the
 * case's uploads read only those. The partial index `case_events_media_idx` holds exactly them, so every
 * other event's insert pays nothing for it.
 *
 * The types go into the SQL as literals, never bound: a planner uses a partial index only when it can
 * see that the query's condition implies the index's, and SQLite's does not look into bound values (nor
 * does PostgreSQL's in a generic plan). The migration writes the same list out, frozen with it; a test
 * checks that the planner matches the two.
 */
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import { MEDIA_COUNTED_TYPES } from '@inbound/contract';

/** `type in ('photo', 'id', …)`, the types as literals. */
export function isMediaEvent<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> {
  return eb(
    sql.ref('type'),
    'in',
    MEDIA_COUNTED_TYPES.map((type) => sql.lit(type)),
  );
}
