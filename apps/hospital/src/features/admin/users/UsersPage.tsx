/**
 * Users: search, invite (one-time password shown once), and per user the edit form — roles,
 * memberships, password reset, disable/enable.
 */
import { useState } from 'react';
import type { AdminUser, OneTimePasswordResponse } from '@inbound/contract';
import { useMe } from '../../auth/queries';
import { ROLE_LABELS } from '../../../lib/roleLabels';
import { EditUserForm } from './EditUserForm';
import { InviteUserForm } from './InviteUserForm';
import { OneTimePasswordPanel } from './OneTimePasswordPanel';
import { useAdminUsers, useMembershipOptions } from './queries';

type Panel = { kind: 'none' } | { kind: 'invite' } | { kind: 'edit'; userId: string };

export function UsersPage() {
  const [search, setSearch] = useState('');
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [issued, setIssued] = useState<{ result: OneTimePasswordResponse; reason: 'invited' | 'reset' } | null>(null);
  const me = useMe();
  const users = useAdminUsers({ q: search.trim() || undefined });
  const options = useMembershipOptions();

  const selected = panel.kind === 'edit' ? users.data?.users.find((u) => u.id === panel.userId) : undefined;

  return (
    <>
      <div className="admin-page-head">
        <h2>Users</h2>
        <button
          className="button button-primary"
          type="button"
          onClick={() => {
            setIssued(null);
            setPanel({ kind: 'invite' });
          }}
        >
          Invite user
        </button>
      </div>

      {issued && <OneTimePasswordPanel result={issued.result} reason={issued.reason} onDone={() => setIssued(null)} />}

      {options.error && (
        <div role="alert" className="banner banner-error">
          {options.error.message}
        </div>
      )}
      {panel.kind === 'invite' && options.data && (
        <InviteUserForm
          options={options.data}
          onCancel={() => setPanel({ kind: 'none' })}
          onInvited={(result) => {
            setIssued({ result, reason: 'invited' });
            setPanel({ kind: 'none' });
          }}
        />
      )}
      {selected && options.data && me.data && (
        <EditUserForm
          key={selected.id}
          user={selected}
          options={options.data}
          selfId={me.data.id}
          onClose={() => setPanel({ kind: 'none' })}
          onPasswordReset={(result) => setIssued({ result, reason: 'reset' })}
        />
      )}

      <div className="admin-toolbar">
        <div className="field">
          <label htmlFor="user-search">Search users</label>
          <input
            id="user-search"
            type="search"
            value={search}
            placeholder="Name, username or e-mail"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        {users.data && (
          <p className="muted" role="status">
            {users.data.users.length} {users.data.users.length === 1 ? 'user' : 'users'}
            {users.data.truncated ? ' shown — narrow the search to see others' : ''}
          </p>
        )}
      </div>

      {users.error && (
        <div role="alert" className="banner banner-error">
          {users.error.message}
        </div>
      )}
      {users.isPending && <p role="status">Loading users…</p>}
      {users.data && (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Roles</th>
              <th scope="col">Member of</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                selected={selected?.id === user.id}
                onEdit={() => setPanel({ kind: 'edit', userId: user.id })}
              />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function UserRow({ user, selected, onEdit }: { user: AdminUser; selected: boolean; onEdit: () => void }) {
  const className = [selected ? 'selected' : '', user.disabled ? 'disabled' : ''].filter(Boolean).join(' ');
  return (
    <tr className={className || undefined} aria-selected={selected || undefined}>
      <td>
        <strong>{user.displayName}</strong>
        <span className="cell-sub">
          {user.username}
          {user.email ? ` · ${user.email}` : ''}
        </span>
      </td>
      <td>
        {user.roles.map((role) => (
          <span key={role} className={role === 'orgAdmin' ? 'pill pill-admin' : 'pill'}>
            {ROLE_LABELS[role]}
          </span>
        ))}
      </td>
      <td>
        {user.hospitals.map((h) => (
          <span key={h.id} className="cell-sub">
            ED · {h.name}
          </span>
        ))}
        {user.agencies.map((a) => (
          <span key={a.id} className="cell-sub">
            {a.name}
            {a.role === 'admin' ? ' (agency admin)' : ''}
          </span>
        ))}
        {user.hospitals.length === 0 && user.agencies.length === 0 && <span className="cell-sub">—</span>}
      </td>
      <td>
        {user.disabled ? (
          <span className="pill pill-disabled">Disabled</span>
        ) : (
          <span className="pill pill-ok">Active</span>
        )}
        {user.mustChangePassword && <span className="pill pill-warn">One-time password</span>}
      </td>
      <td>
        <button className="button" type="button" onClick={onEdit} aria-label={`Edit ${user.displayName}`}>
          Edit
        </button>
      </td>
    </tr>
  );
}
