/**
 * Who is asking: loaded once per authenticated request and handed to every service, whose first line
 * checks it. Teams are the union of the agencies the user is a member of and those they administer (§6).
 */
import type { UserRole } from '@inbound/contract';

export interface Principal {
  userId: string;
  username: string;
  /** The token's id: sign-out and password change revoke by it. */
  sessionId: string;
  roles: UserRole[];
  memberOf: string[];
  administers: string[];
  teamIds: string[];
  edHospitalIds: string[];
  /** Signed in with an administrator's one-time password: only /users/me, sign-out and a password change are allowed. */
  mustChangePassword?: boolean;
  /** A console session of a user the organisation requires MFA of, not yet enrolled: only the MFA set-up calls are allowed (mfa.ts). */
  mfaEnrolmentRequired?: boolean;
  /** The session passed the second factor. */
  mfaVerified?: boolean;
}

export const isOrgAdmin = (principal: Principal): boolean => principal.roles.includes('orgAdmin');
export const isOnTeam = (principal: Principal, agencyId: string): boolean => principal.teamIds.includes(agencyId);
