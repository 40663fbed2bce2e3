/**
 * User administration for organisation admins: list and search, invite (with a one-time password),
 * edit name, e-mail, roles and memberships, reset the password, disable and enable. Every change and
 * its audit entry (recordAdminChange, no passwords or hashes) commit in one transaction.
 *
 * Access that ends takes effect at once: a disabled account's tokens are revoked in that transaction
 * (its sockets close at the gateway's next revocation sweep, ≤ 2 s, and sign-in answers 403); a removed
 * hospital, agency or organisation-admin role re-authorises the channels it opened, after the commit,
 * so live subscriptions the user no longer may hold end (`publisher.reauthorize`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  ADMIN_USERS_LIST_MAX,
  channelName,
  type AdminUser,
  type AdminUsersQuery,
  type AdminUsersResponse,
  type AgencyMembershipRole,
  type MembershipOptionsResponse,
  type OneTimePasswordResponse,
  type UserKind,
  type UserRole,
} from '@inbound/contract';
import type { InviteUserBody, UpdateUserBody } from '@inbound/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { fromFlag, parseJson, toJson } from '../../db/json.js';
import type { DB, UserRow } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import { adminUsersRepository as repo, type UserMemberships } from './admin-users.repository.js';
import { recordAdminChange } from './audit.js';
import { generateOneTimePassword, oneTimePasswordExpiry } from './one-time-password.js';

type Invite = z.output<typeof InviteUserBody>;
type Update = z.output<typeof UpdateUserBody>;

export interface AdminUsersDeps {
  db: Kysely<DB>;
  clock: Clock;
  passwords: { hash(password: string): Promise<string> };
  /** From the auth module: this process forgets the user's cached principals. */
  sessions: { forgetUser(userId: string): void };
  publisher: { reauthorize(channel: string): Promise<void> };
  /** How far back `case:` channels may still be held (the real-time retention). */
  retentionMs: number;
  logError(error: unknown, what: string): void;
}

const KIND_LABEL: Record<UserKind, string> = { crew: 'crew', edStaff: 'ED staff', orgAdmin: 'organisation admin' };
const ROLE_LABEL: Record<UserRole, string> = { crew: 'crew', edStaff: 'ED staff', orgAdmin: 'organisation admin' };

export const adminMessages = {
  usernameTaken: 'That username is already in use.',
  emailTaken: 'That e-mail address is already in use.',
  cannotDisableSelf: 'You cannot disable your own account.',
  lastOrgAdmin: 'The organisation needs at least one enabled organisation admin: make someone else one first.',
  unknownAgency: (id: string) => `agencies: no agency with id "${id}".`,
  unknownHospital: (id: string) => `hospitals: no hospital with id "${id}".`,
} as const;

function toAdminUser(row: UserRow, memberships: UserMemberships | undefined): AdminUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    email: row.email,
    roles: parseJson<UserRole[]>(row.roles, []),
    disabled: fromFlag(row.disabled),
    mustChangePassword: fromFlag(row.must_change_password),
    agencies: memberships?.agencies ?? [],
    hospitals: memberships?.hospitals ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The audit snapshot: what an admin sees of the user — never the password hash. */
const snapshot = (user: AdminUser) => ({
  username: user.username,
  displayName: user.displayName,
  email: user.email,
  roles: user.roles,
  disabled: user.disabled,
  agencies: user.agencies.map((a) => `${a.name} (${a.role})`),
  hospitals: user.hospitals.map((h) => h.name),
});

const who = (user: { displayName: string; username: string }) => `${user.displayName} (${user.username})`;

export function createAdminUsersService(deps: AdminUsersDeps) {
  const { db, clock, passwords } = deps;

  const requireAdmin = (principal: Principal) => {
    if (!isOrgAdmin(principal)) throw forbidden();
  };

  async function load(trx: Kysely<DB>, id: string): Promise<AdminUser> {
    const row = await repo.findById(trx, id);
    if (!row) throw notFound('User');
    return toAdminUser(row, (await repo.memberships(trx, [id])).get(id));
  }

  async function checkMemberships(trx: Kysely<DB>, agencies?: { id: string }[], hospitals?: string[]) {
    if (agencies && agencies.length > 0) {
      const known = await repo.existingAgencyIds(
        trx,
        agencies.map((a) => a.id),
      );
      const unknown = agencies.find((a) => !known.has(a.id));
      if (unknown) throw badRequest(adminMessages.unknownAgency(unknown.id));
    }
    if (hospitals && hospitals.length > 0) {
      const known = await repo.existingHospitalIds(trx, hospitals);
      const unknown = hospitals.find((id) => !known.has(id));
      if (unknown) throw badRequest(adminMessages.unknownHospital(unknown));
    }
  }

  /** Ends the live subscriptions opened by what the user lost; after the commit, never fails the answer. */
  async function endLostAccess(before: AdminUser, after: AdminUser): Promise<void> {
    deps.sessions.forgetUser(after.id);
    const lostAdmin = before.roles.includes('orgAdmin') && !after.roles.includes('orgAdmin');
    const afterHospitals = new Set(after.hospitals.map((h) => h.id));
    const afterAgencies = new Set(after.agencies.map((a) => a.id));
    const lostHospitals = lostAdmin
      ? await repo.allHospitalIds(db)
      : before.hospitals.filter((h) => !afterHospitals.has(h.id)).map((h) => h.id);
    const lostAgencies = before.agencies.filter((a) => !afterAgencies.has(a.id)).map((a) => a.id);
    if (lostHospitals.length === 0 && lostAgencies.length === 0) return;

    const channels = new Set<string>();
    for (const id of lostHospitals) {
      channels.add(channelName('hospital', id));
      channels.add(channelName('hospital-status', id));
    }
    for (const id of lostAgencies) channels.add(channelName('broadcast', id));
    for (const id of await repo.hospitalIdsOfAgencies(db, lostAgencies))
      channels.add(channelName('hospital-status', id));
    const since = new Date(clock.now().getTime() - deps.retentionMs).toISOString();
    const edHospitalsLost = before.hospitals.filter((h) => !afterHospitals.has(h.id)).map((h) => h.id);
    for (const id of await repo.caseIdsToHospitals(db, edHospitalsLost, since)) channels.add(channelName('case', id));
    await Promise.all([...channels].map((channel) => deps.publisher.reauthorize(channel)));
  }

  async function afterCommit(before: AdminUser, after: AdminUser) {
    try {
      await endLostAccess(before, after);
    } catch (error) {
      deps.logError(error, 'ending lost real-time access failed');
    }
  }

  async function ensureAnotherAdmin(trx: Kysely<DB>, userId: string) {
    if ((await repo.otherEnabledOrgAdmins(trx, userId)) === 0) throw badRequest(adminMessages.lastOrgAdmin);
  }

  return {
    async list(principal: Principal, query: AdminUsersQuery): Promise<AdminUsersResponse> {
      requireAdmin(principal);
      const rows = await repo.list(
        db,
        {
          ...(query.q ? { q: query.q } : {}),
          ...(query.disabled ? { disabled: query.disabled === 'true' } : {}),
        },
        ADMIN_USERS_LIST_MAX + 1,
      );
      const page = rows.slice(0, ADMIN_USERS_LIST_MAX);
      const memberships = await repo.memberships(
        db,
        page.map((r) => r.id),
      );
      return {
        users: page.map((row) => toAdminUser(row, memberships.get(row.id))),
        truncated: rows.length > page.length,
      };
    },

    async get(principal: Principal, id: string): Promise<AdminUser> {
      requireAdmin(principal);
      return load(db, id);
    },

    async options(principal: Principal): Promise<MembershipOptionsResponse> {
      requireAdmin(principal);
      return repo.options(db);
    },

    async invite(principal: Principal, body: Invite): Promise<OneTimePasswordResponse> {
      requireAdmin(principal);
      const oneTimePassword = generateOneTimePassword();
      const passwordHash = await passwords.hash(oneTimePassword);
      const now = clock.now();
      const id = randomUUID();
      const usernameKey = body.username.toLowerCase();
      const email = body.email ?? null;
      const emailKey = email?.toLowerCase() ?? null;
      const user = await db.transaction().execute(async (trx) => {
        const taken = await repo.taken(trx, { usernameKey, emailKey });
        if (taken.username) throw conflict(adminMessages.usernameTaken);
        if (taken.email) throw conflict(adminMessages.emailTaken);
        await checkMemberships(trx, body.agencies, body.hospitals);
        await repo.insert(trx, {
          id,
          username: body.username,
          username_key: usernameKey,
          email,
          email_key: emailKey,
          display_name: body.displayName,
          password_hash: passwordHash,
          disabled: 0,
          features: '[]',
          roles: toJson([body.kind]),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          must_change_password: 1,
          one_time_password_expires_at: oneTimePasswordExpiry(now),
        });
        await repo.replaceAgencies(trx, id, body.agencies);
        await repo.replaceHospitals(trx, id, body.hospitals);
        const created = await load(trx, id);
        const where = [...created.hospitals.map((h) => h.name), ...created.agencies.map((a) => a.name)];
        await recordAdminChange(trx, {
          actor: principal,
          action: 'user.invite',
          entityType: 'user',
          entityId: id,
          summary: `Invited ${who(created)} as ${KIND_LABEL[body.kind]}${where.length ? ` of ${where.join(', ')}` : ''}`,
          before: null,
          after: snapshot(created),
          at: now,
        });
        return created;
      });
      return { user, oneTimePassword };
    },

    async update(principal: Principal, id: string, body: Update): Promise<AdminUser> {
      requireAdmin(principal);
      const now = clock.now();
      const { before, after } = await db.transaction().execute(async (trx) => {
        const before = await load(trx, id);
        const emailKey = body.email === undefined ? undefined : (body.email?.toLowerCase() ?? null);
        if (emailKey) {
          const taken = await repo.taken(trx, { emailKey }, id);
          if (taken.email) throw conflict(adminMessages.emailTaken);
        }
        await checkMemberships(trx, body.agencies, body.hospitals);
        if (body.roles && before.roles.includes('orgAdmin') && !body.roles.includes('orgAdmin') && !before.disabled) {
          await ensureAnotherAdmin(trx, id);
        }
        await repo.update(trx, id, {
          ...(body.displayName !== undefined ? { display_name: body.displayName } : {}),
          ...(body.email !== undefined ? { email: body.email ?? null, email_key: emailKey ?? null } : {}),
          ...(body.roles ? { roles: toJson(body.roles) } : {}),
          updated_at: now.toISOString(),
        });
        if (body.agencies) await repo.replaceAgencies(trx, id, body.agencies);
        if (body.hospitals) await repo.replaceHospitals(trx, id, body.hospitals);
        const after = await load(trx, id);
        const changes = describeChanges(before, after);
        await recordAdminChange(trx, {
          actor: principal,
          action: 'user.update',
          entityType: 'user',
          entityId: id,
          summary: `Changed ${who(after)}: ${changes.length ? changes.join('; ') : 'nothing'}`,
          before: snapshot(before),
          after: snapshot(after),
          at: now,
        });
        return { before, after };
      });
      await afterCommit(before, after);
      return after;
    },

    async resetPassword(principal: Principal, id: string): Promise<OneTimePasswordResponse> {
      requireAdmin(principal);
      const oneTimePassword = generateOneTimePassword();
      const passwordHash = await passwords.hash(oneTimePassword);
      const now = clock.now();
      const user = await db.transaction().execute(async (trx) => {
        const before = await load(trx, id);
        await repo.update(trx, id, {
          password_hash: passwordHash,
          must_change_password: 1,
          one_time_password_expires_at: oneTimePasswordExpiry(now),
          updated_at: now.toISOString(),
        });
        // Whoever holds a token signed in with the old password is out.
        await repo.revokeAllSessions(trx, id, now.toISOString());
        const after = await load(trx, id);
        await recordAdminChange(trx, {
          actor: principal,
          action: 'user.resetPassword',
          entityType: 'user',
          entityId: id,
          summary: `Reset the password of ${who(before)} (one-time password issued, signed out everywhere)`,
          before: snapshot(before),
          after: snapshot(after),
          at: now,
        });
        return after;
      });
      deps.sessions.forgetUser(id);
      return { user, oneTimePassword };
    },

    async setDisabled(principal: Principal, id: string, disabled: boolean): Promise<AdminUser> {
      requireAdmin(principal);
      if (disabled && id === principal.userId) throw badRequest(adminMessages.cannotDisableSelf);
      const now = clock.now();
      const user = await db.transaction().execute(async (trx) => {
        const before = await load(trx, id);
        if (before.disabled === disabled) return before;
        if (disabled && before.roles.includes('orgAdmin')) await ensureAnotherAdmin(trx, id);
        await repo.update(trx, id, { disabled: disabled ? 1 : 0, updated_at: now.toISOString() });
        const revoked = disabled ? await repo.revokeAllSessions(trx, id, now.toISOString()) : 0;
        const after = await load(trx, id);
        await recordAdminChange(trx, {
          actor: principal,
          action: disabled ? 'user.disable' : 'user.enable',
          entityType: 'user',
          entityId: id,
          summary: disabled
            ? `Disabled ${who(after)} (${revoked} ${revoked === 1 ? 'session' : 'sessions'} ended)`
            : `Enabled ${who(after)}`,
          before: snapshot(before),
          after: snapshot(after),
          at: now,
        });
        return after;
      });
      deps.sessions.forgetUser(id);
      return user;
    },
  };
}

function describeChanges(before: AdminUser, after: AdminUser): string[] {
  const out: string[] = [];
  if (before.displayName !== after.displayName) out.push(`name "${before.displayName}" → "${after.displayName}"`);
  if (before.email !== after.email) out.push(`e-mail ${before.email ?? 'none'} → ${after.email ?? 'none'}`);
  const added = <T>(a: T[], b: T[]) => b.filter((x) => !a.includes(x));
  const rolesAdded = added(before.roles, after.roles).map((r) => ROLE_LABEL[r]);
  const rolesRemoved = added(after.roles, before.roles).map((r) => ROLE_LABEL[r]);
  if (rolesAdded.length) out.push(`role added: ${rolesAdded.join(', ')}`);
  if (rolesRemoved.length) out.push(`role removed: ${rolesRemoved.join(', ')}`);
  const agencyLabel = (a: { name: string; role: AgencyMembershipRole }) => `${a.name} (${a.role})`;
  const beforeAgencies = before.agencies.map(agencyLabel);
  const afterAgencies = after.agencies.map(agencyLabel);
  const agenciesAdded = added(beforeAgencies, afterAgencies);
  const agenciesRemoved = added(afterAgencies, beforeAgencies);
  if (agenciesAdded.length) out.push(`agency added: ${agenciesAdded.join(', ')}`);
  if (agenciesRemoved.length) out.push(`agency removed: ${agenciesRemoved.join(', ')}`);
  const hospitalsAdded = added(
    before.hospitals.map((h) => h.name),
    after.hospitals.map((h) => h.name),
  );
  const hospitalsRemoved = added(
    after.hospitals.map((h) => h.name),
    before.hospitals.map((h) => h.name),
  );
  if (hospitalsAdded.length) out.push(`ED staff of ${hospitalsAdded.join(', ')} added`);
  if (hospitalsRemoved.length) out.push(`ED staff of ${hospitalsRemoved.join(', ')} removed`);
  return out;
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
