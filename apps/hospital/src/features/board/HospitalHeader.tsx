import type { Hospital, User, UserRole } from '@inbound/contract';

const roleLabels: Record<UserRole, string> = {
  crew: 'Crew',
  edStaff: 'ED staff',
  orgAdmin: 'Organisation admin',
};

interface HospitalHeaderProps {
  user: User;
  hospitals: Hospital[];
  onSignOut: () => void;
  signingOut: boolean;
}

export function HospitalHeader({ user, hospitals, onSignOut, signingOut }: HospitalHeaderProps) {
  const title =
    hospitals.length > 0
      ? hospitals.map((hospital) => hospital.name).join(' · ')
      : user.roles.includes('orgAdmin')
        ? 'Organisation administration'
        : 'Hospital console';
  const roles = user.roles.map((role) => roleLabels[role]).join(', ');
  return (
    <header className="app-header">
      <div className="app-header-title">
        <p className="brand brand-on-dark">Inbound · Hospital console</p>
        <h1>{title}</h1>
      </div>
      <div className="app-header-user">
        <p>
          <span className="user-name">{user.displayName}</span>
          {roles && <span className="user-roles">{roles}</span>}
        </p>
        <button className="button button-quiet" type="button" onClick={onSignOut} disabled={signingOut}>
          {signingOut ? 'Signing out...' : 'Sign out'}
        </button>
      </div>
    </header>
  );
}
