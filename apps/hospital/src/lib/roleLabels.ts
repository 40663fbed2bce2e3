import type { UserRole } from '@inbound/contract';

/** How the console names a user's roles (the account menu, the administration's user list and form). */
export const ROLE_LABELS: Record<UserRole, string> = {
  crew: 'Crew',
  edStaff: 'ED staff',
  orgAdmin: 'Organisation admin',
};
