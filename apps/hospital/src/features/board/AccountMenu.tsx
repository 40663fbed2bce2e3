import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { User } from '@inbound/contract';
import { ROLE_LABELS } from '../../lib/roleLabels';

interface AccountMenuProps {
  user: User;
  onSignOut: () => void;
  signingOut: boolean;
}

/**
 * Who is signed in, as a button that opens what concerns the account (administration, sign-in security,
 * sign out). Folded away so the board's header fits one row on a 1280 px ED desktop. A disclosure, not an
 * ARIA menu: its items are ordinary links and a button, reached with Tab; Escape or a click elsewhere closes it.
 */
export function AccountMenu({ user, onSignOut, signingOut }: AccountMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const roles = user.roles.map((role) => ROLE_LABELS[role]).join(', ');

  useEffect(() => {
    if (!open) return;
    const closeWhenOutside = (event: Event) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', closeWhenOutside);
    document.addEventListener('focusin', closeWhenOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeWhenOutside);
      document.removeEventListener('focusin', closeWhenOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div className="account-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="button button-quiet account-menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        <span className="account-menu-who">
          <span className="user-name">{user.displayName}</span>
          {roles && <span className="user-roles">{roles}</span>}
        </span>
        <span className="account-menu-chevron" aria-hidden="true">
          ▾
        </span>
      </button>
      <div id={panelId} className="account-menu-panel" hidden={!open}>
        {user.roles.includes('orgAdmin') && (
          <Link className="account-menu-item" to="/admin">
            Administration
          </Link>
        )}
        <Link className="account-menu-item" to="/account/security">
          Sign-in security
        </Link>
        <button className="account-menu-item" type="button" onClick={onSignOut} disabled={signingOut}>
          {signingOut ? 'Signing out...' : 'Sign out'}
        </button>
      </div>
    </div>
  );
}
