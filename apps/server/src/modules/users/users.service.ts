/** The signed-in user: who they are (`/users/me`) and changing their password. */
import type { SecurityEvent } from '../audit/security-audit.js';
import {
  messages,
  serverMessages,
  type Feature,
  type User,
  type UserRole,
  type ChangePasswordBody,
} from '@inbound/contract';
import { parseJson, fromFlag } from '../../db/json.js';
import { createVersionedCache } from '../../db/reference-version.js';
import type { UserRow } from '../../db/schema.js';
import { badRequest, notFound, tooManyRequests } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../../clock.js';
import type { Memberships, UsersRepository } from './users.repository.js';
import type { SignInThrottle } from '../auth/sign-in-throttle.js';
import { passwordProblem } from './password-policy.js';

export interface UsersServiceDeps {
  repo: UsersRepository;
  clock: Clock;
  passwords: {
    hash(password: string): Promise<string>;
    verify(hash: string, password: string): Promise<boolean>;
  };
  /** From the auth module: wrong current passwords are counted like wrong sign-in passwords. */
  throttle: SignInThrottle;
  /** From the auth module: ends every other token of the user. */
  sessions: {
    revokeOtherSessions(userId: string, keepSessionId: string): Promise<number>;
    /** Drops the user's cached principals (a one-time password was just replaced). */
    forgetUser?(userId: string): void;
  };
  /** The security audit log (modules/audit/security-audit.ts): a password change is recorded. */
  securityAudit?: (event: SecurityEvent) => Promise<void>;
}

/** What the auth module needs to sign someone in and to rebuild the principal on each request. */
export interface SignInCandidate {
  id: string;
  passwordHash: string;
  disabled: boolean;
  roles: UserRole[];
  /** When the administrator's one-time password this account still has stops working; null: none. */
  oneTimePasswordExpiresAt: string | null;
}

/** Users whose /users/me answer is kept (one per active user). */
const CACHED_USERS = 5_000;

export function createUsersService({ repo, clock, passwords, throttle, sessions, securityAudit }: UsersServiceDeps) {
  const answers = createVersionedCache<User | null>(repo.referenceVersion, CACHED_USERS);
  /** The principal for a request, or null when the user is gone or disabled. */
  async function loadPrincipal(userId: string, sessionId: string): Promise<Principal | null> {
    const [row, m] = await Promise.all([repo.findById(userId), repo.memberships(userId)]);
    if (!row || fromFlag(row.disabled)) return null;
    return {
      userId: row.id,
      username: row.username,
      sessionId,
      roles: parseJson<UserRole[]>(row.roles, []),
      memberOf: m.memberOf,
      administers: m.administers,
      teamIds: [...new Set([...m.memberOf, ...m.administers])],
      edHospitalIds: m.edHospitalIds,
      mustChangePassword: fromFlag(row.must_change_password),
    };
  }

  return {
    /** A user's display name (chat senders, broadcast authors); null for an unknown user. */
    async displayName(userId: string): Promise<string | null> {
      return (await repo.findById(userId))?.display_name ?? null;
    },

    async findSignInCandidate(login: string): Promise<SignInCandidate | null> {
      const row = await repo.findByLogin(login.trim().toLowerCase());
      if (!row) return null;
      const roles = parseJson<UserRole[]>(row.roles, []);
      return {
        id: row.id,
        passwordHash: row.password_hash,
        disabled: fromFlag(row.disabled),
        roles,
        oneTimePasswordExpiresAt: fromFlag(row.must_change_password)
          ? (row.one_time_password_expires_at ?? null)
          : null,
      };
    },

    /** Whether an enabled user is on the team (a protocol document link's holder, issue 13). */
    async isTeamMember(userId: string, agencyId: string): Promise<boolean> {
      return (await loadPrincipal(userId, 'protocol-link'))?.teamIds.includes(agencyId) ?? false;
    },

    loadPrincipal,

    /**
     * Read at every app start and on every token check of the crew app: kept per user until the
     * database's reference version moves (any user or membership edit, from any process), and built
     * from the stored memberships rather than the token's principal, which may be a moment older.
     */
    async me(principal: Principal): Promise<User> {
      const user = await answers.get(principal.userId, async () => {
        const [row, memberships] = await Promise.all([
          repo.findById(principal.userId),
          repo.memberships(principal.userId),
        ]);
        return row && toUser(row, memberships);
      });
      if (!user) throw notFound('User');
      return user;
    },

    /** `address`: the client's address, for the same throttle as sign-in. */
    async changePassword(
      principal: Principal,
      body: ChangePasswordBody,
      address: string,
    ): Promise<{ message: string }> {
      // The spec's field messages first, in its order (§5).
      if (body.currentPassword === '') throw badRequest(messages.fillCurrentPassword);
      if (body.newPassword === '') throw badRequest(messages.fillNewPassword);
      if (body.verifyPassword === '') throw badRequest(messages.fillNewPasswordAgain);

      const row = await repo.findById(principal.userId);
      if (!row) throw notFound('User');
      // A stolen token must not become a password oracle: the same delays and limits as sign-in.
      const attempt = { userId: row.id, typedName: row.username.toLowerCase(), address };
      const waitMs = await throttle.waitMs(attempt);
      if (waitMs > 0) throw tooManyRequests(serverMessages.tooManySignIns, Math.ceil(waitMs / 1000));
      if (!(await passwords.verify(row.password_hash, body.currentPassword))) {
        await throttle.failed(attempt);
        throw badRequest(serverMessages.currentPasswordWrong);
      }
      if (body.newPassword !== body.verifyPassword) throw badRequest(serverMessages.passwordsDoNotMatch);
      const problem = passwordProblem({
        username: row.username,
        currentPassword: body.currentPassword,
        newPassword: body.newPassword,
      });
      if (problem) throw badRequest(problem);

      await repo.updatePasswordHash(row.id, await passwords.hash(body.newPassword), clock.now().toISOString());
      // Whoever else holds a token (a lost phone, the person who learned the old password) is out now;
      // the device that changed the password stays signed in.
      await sessions.revokeOtherSessions(row.id, principal.sessionId);
      sessions.forgetUser?.(row.id);
      await securityAudit?.({
        actorId: row.id,
        action: 'auth.passwordChange',
        entityType: 'user',
        entityId: row.id,
        detail: { address },
        at: clock.now(),
      });
      return { message: serverMessages.passwordChanged };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

function toUser(row: UserRow, memberships: Memberships): User {
  return {
    id: row.id,
    _id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.display_name,
    features: parseJson<Feature[]>(row.features, []),
    emsAgencyMemberships: memberships.memberOf.map((_id) => ({ _id })),
    emsAgenciesAdministered: memberships.administers.map((_id) => ({ _id })),
    hospitalMemberships: memberships.edHospitalIds.map((_id) => ({ _id })),
    roles: parseJson<UserRole[]>(row.roles, []),
    mustChangePassword: fromFlag(row.must_change_password),
  };
}
