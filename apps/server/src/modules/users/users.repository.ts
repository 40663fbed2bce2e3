/** Users and their memberships (agency member/admin, hospital ED staff). Queries only. */
import { sql, type Kysely } from 'kysely';
import { prepareQuery } from '../../db/prepared.js';
import type { DB, UserRow } from '../../db/schema.js';
import { referenceVersionOf } from '../../db/reference-version.js';

export interface Memberships {
  memberOf: string[];
  administers: string[];
  edHospitalIds: string[];
}

export function createUsersRepository(db: Kysely<DB>) {
  // /users/me and every principal load read the user by id: built and compiled once (db/prepared.ts).
  const userById = prepareQuery(db, (id: string) => db.selectFrom('users').selectAll().where('id', '=', id), 1);
  return {
    /** The database's reference version (db/reference-version.ts): caches of this data key on it. */
    referenceVersion: referenceVersionOf(db),

    /** By lower-cased username or e-mail: people type either at the sign-in screen. */
    async findByLogin(loginKey: string): Promise<UserRow | null> {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.or([eb('username_key', '=', loginKey), eb('email_key', '=', loginKey)]))
        .limit(2)
        .execute();
      // A username that equals someone else's e-mail: the username wins, as the sign-in field says.
      return rows.find((r) => r.username_key === loginKey) ?? rows[0] ?? null;
    },

    async findById(id: string): Promise<UserRow | null> {
      return (await userById(id))[0] ?? null;
    },

    /** One round trip: runs on every authenticated request. */
    async memberships(userId: string): Promise<Memberships> {
      const rows = await db
        .selectFrom('agency_members')
        .select(['agency_id as id', sql<string>`role`.as('kind')])
        .where('user_id', '=', userId)
        .unionAll(
          db
            .selectFrom('hospital_staff')
            .select(['hospital_id as id', sql<string>`'ed'`.as('kind')])
            .where('user_id', '=', userId),
        )
        .execute();
      const ids = (kind: string) =>
        rows
          .filter((r) => r.kind === kind)
          .map((r) => r.id)
          .sort();
      return { memberOf: ids('member'), administers: ids('admin'), edHospitalIds: ids('ed') };
    },

    /** The user's own new password: also ends a must-change-password state. */
    async updatePasswordHash(userId: string, passwordHash: string, at: string): Promise<void> {
      await db
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          must_change_password: 0,
          one_time_password_expires_at: null,
          updated_at: at,
        })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
