/**
 * Organisation administration of people (issue 5 item 8): users, their roles and memberships (agency
 * member or admin, hospital ED staff), invitations with a one-time password, password resets, disable
 * and enable. Organisation admins only. A one-time password is answered once, to the admin who made
 * it, and never stored or logged in clear; the account must change it before doing anything else.
 */
import { z } from 'zod';
import type { RouteDef } from './api.js';
import { NAME_MAX_LENGTH } from './constants.js';
import { Id, UserRole } from './entities.js';

/** The 403 answer to any other call while an account still has a one-time password. */
export const PASSWORD_CHANGE_REQUIRED = {
  code: 'password_change_required',
  message: 'Change the one-time password you were given before you continue.',
} as const;

/** Letters, digits and . _ - ; what people type at the sign-in screen. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,62}[A-Za-z0-9]$/;
export const ADMIN_USERS_LIST_MAX = 500;

export const AdminUsername = z
  .string({ error: 'username is required' })
  .trim()
  .min(3, 'username must be at least 3 characters')
  .max(64, 'username is at most 64 characters')
  .regex(USERNAME_PATTERN, 'username may use letters, digits, dot, dash and underscore only');

export const AdminDisplayName = z
  .string({ error: 'displayName is required' })
  .trim()
  .min(1, 'displayName is required')
  .max(NAME_MAX_LENGTH, `displayName is at most ${NAME_MAX_LENGTH} characters`);

export const AdminEmail = z
  .string()
  .trim()
  .max(320, 'email is at most 320 characters')
  .pipe(z.email('email is not an e-mail address'));

export const AgencyMembershipRole = z.enum(['member', 'admin']);
export type AgencyMembershipRole = z.infer<typeof AgencyMembershipRole>;

export const AgencyMembershipInput = z.object({ id: Id, role: AgencyMembershipRole });
export type AgencyMembershipInput = z.infer<typeof AgencyMembershipInput>;

/** What the invite form offers; each maps to the user's role. */
export const USER_KINDS = { crew: 'crew', edStaff: 'edStaff', orgAdmin: 'orgAdmin' } as const;
export const UserKind = z.enum(['crew', 'edStaff', 'orgAdmin'], { error: 'kind must be crew, edStaff or orgAdmin' });
export type UserKind = z.infer<typeof UserKind>;

const uniqueIds = (ids: readonly string[]) => new Set(ids).size === ids.length;

const AgencyMemberships = z
  .array(AgencyMembershipInput)
  .max(100, 'at most 100 agencies')
  .refine((list) => uniqueIds(list.map((m) => m.id)), 'agencies lists an agency twice');
const HospitalMemberships = z
  .array(Id)
  .max(100, 'at most 100 hospitals')
  .refine(uniqueIds, 'hospitals lists a hospital twice');
const Roles = z.array(UserRole).min(1, 'roles needs at least one role').refine(uniqueIds, 'roles lists a role twice');

export const InviteUserBody = z
  .object({
    username: AdminUsername,
    displayName: AdminDisplayName,
    email: AdminEmail.nullable().optional(),
    kind: UserKind,
    agencies: AgencyMemberships.default([]),
    hospitals: HospitalMemberships.default([]),
  })
  .superRefine((body, ctx) => {
    if (body.kind === 'crew' && body.agencies.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['agencies'], message: 'a crew member needs at least one agency' });
    }
    if (body.kind === 'edStaff' && body.hospitals.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['hospitals'], message: 'ED staff need at least one hospital' });
    }
  });
export type InviteUserBody = z.infer<typeof InviteUserBody>;

export const UpdateUserBody = z
  .object({
    displayName: AdminDisplayName.optional(),
    email: AdminEmail.nullable().optional(),
    roles: Roles.optional(),
    agencies: AgencyMemberships.optional(),
    hospitals: HospitalMemberships.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'nothing to change');
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const AdminUser = z.object({
  id: Id,
  username: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  roles: z.array(UserRole),
  disabled: z.boolean(),
  /** Signed in with a one-time password that has not been changed yet. */
  mustChangePassword: z.boolean(),
  agencies: z.array(z.object({ id: Id, name: z.string(), role: AgencyMembershipRole })),
  hospitals: z.array(z.object({ id: Id, name: z.string() })),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUsersQuery = z.object({
  /** Part of the username, display name or e-mail (any case). */
  q: z.string().trim().max(200).optional(),
  /** 'true': only disabled accounts; 'false': only enabled ones. */
  disabled: z.enum(['true', 'false']).optional(),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

export const AdminUsersResponse = z.object({
  users: z.array(AdminUser),
  /** More matched than were answered (ADMIN_USERS_LIST_MAX): narrow the search. */
  truncated: z.boolean(),
});
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

/** An invitation or a password reset: the one-time password is in this answer and nowhere else. */
export const OneTimePasswordResponse = z.object({ user: AdminUser, oneTimePassword: z.string() });
export type OneTimePasswordResponse = z.infer<typeof OneTimePasswordResponse>;

/** What the membership pickers offer: every agency and hospital, by name. */
export const MembershipOptionsResponse = z.object({
  agencies: z.array(z.object({ id: Id, name: z.string() })),
  hospitals: z.array(z.object({ id: Id, name: z.string() })),
});
export type MembershipOptionsResponse = z.infer<typeof MembershipOptionsResponse>;

export const AdminUserParams = z.object({ id: Id });

export const adminUserRoutes = {
  adminUsers: {
    method: 'GET',
    path: '/v4/admin/users',
    summary: 'Users with their roles and memberships, searchable (organisation admins)',
    auth: true,
    query: AdminUsersQuery,
    response: AdminUsersResponse,
  },
  adminMembershipOptions: {
    method: 'GET',
    path: '/v4/admin/membership-options',
    summary: 'The agencies and hospitals a user can be made a member of (organisation admins)',
    auth: true,
    response: MembershipOptionsResponse,
  },
  adminUser: {
    method: 'GET',
    path: '/v4/admin/users/:id',
    summary: 'One user with roles and memberships (organisation admins)',
    auth: true,
    params: AdminUserParams,
    response: AdminUser,
  },
  inviteUser: {
    method: 'POST',
    path: '/v4/admin/users',
    summary: 'Invite a user: answers a one-time password, shown once; it must be changed at first sign-in',
    auth: true,
    body: InviteUserBody,
    response: OneTimePasswordResponse,
  },
  updateUser: {
    method: 'PATCH',
    path: '/v4/admin/users/:id',
    summary: "Change a user's name, e-mail, roles or memberships; lost access ends live subscriptions",
    auth: true,
    params: AdminUserParams,
    body: UpdateUserBody,
    response: AdminUser,
  },
  resetUserPassword: {
    method: 'POST',
    path: '/v4/admin/users/:id/reset-password',
    summary: "A new one-time password; the user's tokens are revoked",
    auth: true,
    params: AdminUserParams,
    response: OneTimePasswordResponse,
  },
  disableUser: {
    method: 'POST',
    path: '/v4/admin/users/:id/disable',
    summary: 'Disable the account: its tokens are revoked and its real-time connections closed',
    auth: true,
    params: AdminUserParams,
    response: AdminUser,
  },
  enableUser: {
    method: 'POST',
    path: '/v4/admin/users/:id/enable',
    summary: 'Enable a disabled account again',
    auth: true,
    params: AdminUserParams,
    response: AdminUser,
  },
} as const satisfies Record<string, RouteDef>;
