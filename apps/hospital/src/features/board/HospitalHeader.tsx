import { Link } from 'react-router';
import type { ReactNode } from 'react';
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
  /** Shown in the header between the title and the user (the board's live state and sound switch). */
  children?: ReactNode;
}

export function HospitalHeader({ user, hospitals, onSignOut, signingOut, children }: HospitalHeaderProps) {
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
      {children}
      <div className="app-header-user">
        {user.roles.includes('orgAdmin') && (
          <Link className="button button-quiet header-link" to="/admin">
            Administration
          </Link>
        )}
        <Link className="button button-quiet header-link" to="/account/security">
          Sign-in security
        </Link>
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
