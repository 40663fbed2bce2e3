/**
 * One user: name, e-mail, roles and memberships; a new one-time password; disable or enable. Removing
 * access ends the person's live views of it at once (the server re-checks their subscriptions), and
 * disabling signs them out everywhere — both are confirmed first.
 */
import { useState, type FormEvent } from 'react';
import {
  UpdateUserBody,
  type AdminUser,
  type MembershipOptionsResponse,
  type OneTimePasswordResponse,
  type UserRole,
} from '@inbound/contract';
import { fieldErrors } from './fieldErrors';
import { MembershipFields, type Memberships } from './MembershipFields';
import { useClearMfa, useResetPassword, useSetDisabled, useUpdateUser } from './queries';
import { ROLE_LABELS } from '../../../lib/roleLabels';
import { TextField } from '../TextField';

const ROLES: UserRole[] = ['edStaff', 'crew', 'orgAdmin'];

interface Props {
  user: AdminUser;
  options: MembershipOptionsResponse;
  /** The signed-in admin: they cannot disable themselves. */
  selfId: string;
  onPasswordReset: (result: OneTimePasswordResponse) => void;
  onClose: () => void;
}

export function EditUserForm({ user, options, selfId, onPasswordReset, onClose }: Props) {
  const [displayName, setDisplayName] = useState(user.displayName);
  const [email, setEmail] = useState(user.email ?? '');
  const [roles, setRoles] = useState<UserRole[]>(user.roles);
  const [memberships, setMemberships] = useState<Memberships>({
    hospitals: user.hospitals.map((h) => h.id),
    agencies: user.agencies.map((a) => ({ id: a.id, role: a.role })),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<'disable' | 'reset' | 'mfa' | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useUpdateUser();
  const reset = useResetPassword();
  const setDisabled = useSetDisabled();
  const clearMfa = useClearMfa();
  const error = update.error ?? reset.error ?? setDisabled.error ?? clearMfa.error;

  function toggleRole(role: UserRole, on: boolean) {
    setRoles((current) =>
      on ? ROLES.filter((r) => r === role || current.includes(r)) : current.filter((r) => r !== role),
    );
    setSaved(false);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      displayName,
      email: email.trim() === '' ? null : email,
      roles,
      hospitals: memberships.hospitals,
      agencies: memberships.agencies,
    };
    const parsed = UpdateUserBody.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setSaved(false);
    update.mutate({ id: user.id, body }, { onSuccess: () => setSaved(true) });
  }

  const isSelf = user.id === selfId;
  const busy = update.isPending || reset.isPending || setDisabled.isPending || clearMfa.isPending;

  return (
    <section className="panel" aria-labelledby="edit-title">
      <div className="admin-page-head">
        <h2 id="edit-title">
          {user.displayName} <span className="muted">({user.username})</span>
        </h2>
        <button className="button" type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted" style={{ marginBottom: '1rem' }}>
        {user.disabled ? (
          <span className="pill pill-disabled">Disabled</span>
        ) : (
          <span className="pill pill-ok">Active</span>
        )}
        {user.mustChangePassword && <span className="pill pill-warn">Must change password</span>}
      </p>
      <form className="admin-form" noValidate onSubmit={submit}>
        {error && (
          <div role="alert" className="banner banner-error">
            {error.message}
          </div>
        )}
        {saved && (
          <div role="status" className="banner banner-ok">
            Changes saved.
          </div>
        )}
        {clearMfa.isSuccess && (
          <div role="status" className="banner banner-ok">
            {clearMfa.data.message}
          </div>
        )}
        <div className="admin-form-grid">
          <TextField
            id="edit-display-name"
            label="Full name"
            value={displayName}
            error={errors.displayName}
            onChange={(value) => {
              setDisplayName(value);
              setSaved(false);
            }}
          />
          <TextField
            id="edit-email"
            label="E-mail (optional)"
            type="email"
            value={email}
            error={errors.email}
            onChange={(value) => {
              setEmail(value);
              setSaved(false);
            }}
          />
        </div>
        <fieldset aria-describedby={errors.roles ? 'edit-roles-error' : undefined}>
          <legend>Roles</legend>
          {ROLES.map((role) => (
            <label className="choice" key={role}>
              <input
                type="checkbox"
                checked={roles.includes(role)}
                onChange={(event) => toggleRole(role, event.target.checked)}
              />
              {ROLE_LABELS[role]}
            </label>
          ))}
          {errors.roles && (
            <p id="edit-roles-error" className="field-error">
              {errors.roles}
            </p>
          )}
        </fieldset>
        <MembershipFields
          idPrefix="edit"
          options={options}
          value={memberships}
          onChange={(next) => {
            setMemberships(next);
            setSaved(false);
          }}
          errors={{ hospitals: errors.hospitals, agencies: errors.agencies }}
        />
        <div className="form-actions">
          <button className="button button-primary" type="submit" disabled={busy}>
            {update.isPending ? 'Saving…' : 'Save changes'}
          </button>
          <button className="button" type="button" disabled={busy} onClick={() => setConfirming('reset')}>
            Reset password…
          </button>
          <button className="button" type="button" disabled={busy} onClick={() => setConfirming('mfa')}>
            Clear second factors…
          </button>
          {user.disabled ? (
            <button
              className="button"
              type="button"
              disabled={busy}
              onClick={() => setDisabled.mutate({ id: user.id, disabled: false })}
            >
              Enable account
            </button>
          ) : (
            !isSelf && (
              <button
                className="button button-danger-quiet"
                type="button"
                disabled={busy}
                onClick={() => setConfirming('disable')}
              >
                Disable account…
              </button>
            )
          )}
        </div>
        {confirming === 'disable' && (
          <div className="confirm" role="group" aria-label="Confirm disabling">
            <p>
              Disable {user.displayName}? They are signed out of every device at once and cannot sign in until enabled
              again.
            </p>
            <div className="form-actions">
              <button
                className="button button-danger"
                type="button"
                disabled={busy}
                onClick={() =>
                  setDisabled.mutate({ id: user.id, disabled: true }, { onSettled: () => setConfirming(null) })
                }
              >
                Disable {user.username}
              </button>
              <button className="button" type="button" onClick={() => setConfirming(null)}>
                Keep active
              </button>
            </div>
          </div>
        )}
        {confirming === 'mfa' && (
          <div className="confirm" role="group" aria-label="Confirm clearing second factors">
            <p>
              Clear {user.displayName}&apos;s authenticator app, security keys and recovery codes (a lost phone or key)?
              They are signed out everywhere and set up a second factor again at their next sign-in.
            </p>
            <div className="form-actions">
              <button
                className="button button-danger"
                type="button"
                disabled={busy}
                onClick={() => clearMfa.mutate(user.id, { onSettled: () => setConfirming(null) })}
              >
                Clear second factors
              </button>
              <button className="button" type="button" onClick={() => setConfirming(null)}>
                Keep them
              </button>
            </div>
          </div>
        )}
        {confirming === 'reset' && (
          <div className="confirm" role="group" aria-label="Confirm password reset">
            <p>
              Make a new one-time password for {user.displayName}? Their current password stops working and they are
              signed out everywhere.
            </p>
            <div className="form-actions">
              <button
                className="button button-danger"
                type="button"
                disabled={busy}
                onClick={() =>
                  reset.mutate(user.id, {
                    onSuccess: onPasswordReset,
                    onSettled: () => setConfirming(null),
                  })
                }
              >
                Reset password
              </button>
              <button className="button" type="button" onClick={() => setConfirming(null)}>
                Cancel
              </button>
            </div>
          </div>
        )}
      </form>
    </section>
  );
}
