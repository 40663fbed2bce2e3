/**
 * Users as organisation admins see them: rows with their memberships (and the names of the agencies
 * and hospitals), and the writes of user administration. Every function takes the database or the
 * transaction to run on, so a change, its session revocations and its audit entry commit together.
 */
import { sql, type Kysely } from 'kysely';
import type { AgencyMembershipRole } from '@inbound/contract';
import type { DB, UserRow } from '../../db/schema.js';

type Db = Kysely<DB>;

export interface UserMemberships {
  agencies: { id: string; name: string; role: AgencyMembershipRole }[];
  hospitals: { id: string; name: string }[];
}

/** `%` and `_` typed into a search box are letters, not wildcards. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const adminUsersRepository = {
  async list(db: Db, filter: { q?: string; disabled?: boolean }, limit: number): Promise<UserRow[]> {
    let query = db.selectFrom('users').selectAll();
    if (filter.q) {
      const pattern = likePattern(filter.q);
      query = query.where((eb) =>
        eb.or([
          eb('username_key', 'like', sql<string>`${pattern} escape '\\'`),
          eb(sql<string>`lower(display_name)`, 'like', sql<string>`${pattern} escape '\\'`),
          eb('email_key', 'like', sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    if (filter.disabled !== undefined) query = query.where('disabled', '=', filter.disabled ? 1 : 0);
    return query
      .orderBy(sql`lower(display_name)`)
      .orderBy('username_key')
      .limit(limit)
      .execute();
  },

  async findById(db: Db, id: string): Promise<UserRow | null> {
    return (await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  },

  /** Whoever holds the username or the e-mail already (case-insensitive), other than `exceptId`. */
  async taken(
    db: Db,
    { usernameKey, emailKey }: { usernameKey?: string; emailKey?: string | null },
    exceptId?: string,
  ): Promise<{ username: boolean; email: boolean }> {
    const ors = [usernameKey, emailKey].filter((k): k is string => typeof k === 'string');
    if (ors.length === 0) return { username: false, email: false };
    let query = db
      .selectFrom('users')
      .select(['username_key', 'email_key'])
      .where((eb) =>
        eb.or([
          ...(usernameKey ? [eb('username_key', '=', usernameKey), eb('email_key', '=', usernameKey)] : []),
          ...(emailKey ? [eb('email_key', '=', emailKey), eb('username_key', '=', emailKey)] : []),
        ]),
      );
    if (exceptId) query = query.where('id', '!=', exceptId);
    const rows = await query.execute();
    return {
      username:
        usernameKey !== undefined && rows.some((r) => r.username_key === usernameKey || r.email_key === usernameKey),
      email: !!emailKey && rows.some((r) => r.email_key === emailKey || r.username_key === emailKey),
    };
  },

  async memberships(db: Db, userIds: readonly string[]): Promise<Map<string, UserMemberships>> {
    const result = new Map<string, UserMemberships>(userIds.map((id) => [id, { agencies: [], hospitals: [] }]));
    if (userIds.length === 0) return result;
    const [agencyRows, hospitalRows] = await Promise.all([
      db
        .selectFrom('agency_members')
        .innerJoin('agencies', 'agencies.id', 'agency_members.agency_id')
        .select(['agency_members.user_id', 'agencies.id', 'agencies.name', 'agency_members.role'])
        .where('agency_members.user_id', 'in', userIds)
        .orderBy('agencies.name')
        .execute(),
      db
        .selectFrom('hospital_staff')
        .innerJoin('hospitals', 'hospitals.id', 'hospital_staff.hospital_id')
        .select(['hospital_staff.user_id', 'hospitals.id', 'hospitals.name'])
        .where('hospital_staff.user_id', 'in', userIds)
        .orderBy('hospitals.name')
        .execute(),
    ]);
    for (const row of agencyRows)
      result.get(row.user_id)?.agencies.push({ id: row.id, name: row.name, role: row.role });
    for (const row of hospitalRows) result.get(row.user_id)?.hospitals.push({ id: row.id, name: row.name });
    return result;
  },

  async insert(
    db: Db,
    row: Omit<
      UserRow,
      'must_change_password' | 'totp_secret' | 'totp_pending_secret' | 'totp_enrolled_at' | 'totp_last_step'
    > & {
      must_change_password: number;
    },
  ): Promise<void> {
    await db.insertInto('users').values(row).execute();
  },

  async update(
    db: Db,
    id: string,
    changes: Partial<
      Pick<
        UserRow,
        | 'display_name'
        | 'email'
        | 'email_key'
        | 'roles'
        | 'disabled'
        | 'password_hash'
        | 'must_change_password'
        | 'one_time_password_expires_at'
      >
    > & { updated_at: string },
  ): Promise<void> {
    await db.updateTable('users').set(changes).where('id', '=', id).execute();
  },

  async replaceAgencies(db: Db, userId: string, list: readonly { id: string; role: AgencyMembershipRole }[]) {
    await db.deleteFrom('agency_members').where('user_id', '=', userId).execute();
    if (list.length > 0) {
      await db
        .insertInto('agency_members')
        .values(list.map((m) => ({ agency_id: m.id, user_id: userId, role: m.role })))
        .execute();
    }
  },

  async replaceHospitals(db: Db, userId: string, hospitalIds: readonly string[]) {
    await db.deleteFrom('hospital_staff').where('user_id', '=', userId).execute();
    if (hospitalIds.length > 0) {
      await db
        .insertInto('hospital_staff')
        .values(hospitalIds.map((hospital_id) => ({ hospital_id, user_id: userId })))
        .execute();
    }
  },

  /** Ends every live token of the user; answers how many. */
  async revokeAllSessions(db: Db, userId: string, at: string): Promise<number> {
    const result = await db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Enabled organisation admins other than `exceptId` (roles is a JSON array of names). */
  async otherEnabledOrgAdmins(db: Db, exceptId: string): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('disabled', '=', 0)
      .where('id', '!=', exceptId)
      .where('roles', 'like', '%"orgAdmin"%')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async existingAgencyIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db.selectFrom('agencies').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  },

  async existingHospitalIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db.selectFrom('hospitals').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  },

  async options(db: Db) {
    const [agencies, hospitals] = await Promise.all([
      db.selectFrom('agencies').select(['id', 'name']).orderBy('name').execute(),
      db.selectFrom('hospitals').select(['id', 'name']).orderBy('name').execute(),
    ]);
    return { agencies, hospitals };
  },

  async allHospitalIds(db: Db): Promise<string[]> {
    return (await db.selectFrom('hospitals').select('id').execute()).map((r) => r.id);
  },

  /** Hospitals the agencies deliver to: their status channels are open to the agencies' crews. */
  async hospitalIdsOfAgencies(db: Db, agencyIds: readonly string[]): Promise<string[]> {
    if (agencyIds.length === 0) return [];
    const rows = await db
      .selectFrom('agency_hospitals')
      .select('hospital_id')
      .distinct()
      .where('agency_id', 'in', agencyIds)
      .execute();
    return rows.map((r) => r.hospital_id);
  },

  /**
   * Cases whose `case:` channel ED staff of the hospitals may hold: coming to them, or arrived / changed
   * within the real-time retention (a board's history).
   */
  async caseIdsToHospitals(db: Db, hospitalIds: readonly string[], since: string): Promise<string[]> {
    if (hospitalIds.length === 0) return [];
    const rows = await db
      .selectFrom('cases')
      .select('id')
      .where('destination_hospital_id', 'in', hospitalIds)
      .where((eb) => eb.or([eb('closed_at', 'is', null), eb('updated_at', '>', since)]))
      .execute();
    return rows.map((r) => r.id);
  },
};
