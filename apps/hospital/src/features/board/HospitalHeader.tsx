import type { ReactNode } from 'react';
import type { Hospital, User } from '@inbound/contract';
import { AccountMenu } from './AccountMenu';

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
  return (
    <header className="app-header">
      <div className="app-header-title">
        <p className="brand brand-on-dark">Inbound · Hospital console</p>
        <h1>{title}</h1>
      </div>
      {children}
      <AccountMenu user={user} onSignOut={onSignOut} signingOut={signingOut} />
    </header>
  );
}
