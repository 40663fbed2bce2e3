/**
 * Invite a person: who they are, what they do (crew, ED staff, organisation admin) and where. The
 * server answers a one-time password, which the page shows once (OneTimePasswordPanel).
 */
import { useState, type FormEvent } from 'react';
import {
  InviteUserBody,
  type MembershipOptionsResponse,
  type OneTimePasswordResponse,
  type UserKind,
} from '@inbound/contract';
import { fieldErrors } from './fieldErrors';
import { MembershipFields, type Memberships } from './MembershipFields';
import { useInviteUser } from './queries';
import { TextField } from '../TextField';

const KINDS: { value: UserKind; label: string; hint: string }[] = [
  { value: 'edStaff', label: 'ED staff', hint: "Sees the inbound board of the hospitals' emergency departments." },
  { value: 'crew', label: 'Crew', hint: 'Uses the crew app for the agencies chosen below.' },
  { value: 'orgAdmin', label: 'Organisation admin', hint: 'Administers agencies, hospitals and users.' },
];

interface Props {
  options: MembershipOptionsResponse;
  onInvited: (result: OneTimePasswordResponse) => void;
  onCancel: () => void;
}

export function InviteUserForm({ options, onInvited, onCancel }: Props) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [kind, setKind] = useState<UserKind>('edStaff');
  const [memberships, setMemberships] = useState<Memberships>({ hospitals: [], agencies: [] });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invite = useInviteUser();

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      username,
      displayName,
      email: email.trim() === '' ? null : email,
      kind,
      agencies: memberships.agencies,
      hospitals: memberships.hospitals,
    };
    const parsed = InviteUserBody.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    invite.mutate(body, { onSuccess: onInvited });
  }

  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a user</h2>
      <form className="admin-form" noValidate onSubmit={submit}>
        {invite.error && (
          <div role="alert" className="banner banner-error">
            {invite.error.message}
          </div>
        )}
        <div className="admin-form-grid">
          <TextField
            id="invite-username"
            label="Username"
            value={username}
            error={errors.username}
            hint="Letters, digits, dot, dash, underscore. Used to sign in."
            onChange={setUsername}
          />
          <TextField
            id="invite-display-name"
            label="Full name"
            value={displayName}
            error={errors.displayName}
            onChange={setDisplayName}
          />
          <TextField
            id="invite-email"
            label="E-mail (optional)"
            type="email"
            value={email}
            error={errors.email}
            onChange={setEmail}
          />
        </div>
        <fieldset>
          <legend>Kind of account</legend>
          {KINDS.map((option) => (
            <label className="choice" key={option.value}>
              <input
                type="radio"
                name="invite-kind"
                value={option.value}
                checked={kind === option.value}
                onChange={() => setKind(option.value)}
              />
              <span>
                <strong>{option.label}</strong> <span className="muted">— {option.hint}</span>
              </span>
            </label>
          ))}
          {errors.kind && <p className="field-error">{errors.kind}</p>}
        </fieldset>
        <MembershipFields
          idPrefix="invite"
          options={options}
          value={memberships}
          onChange={setMemberships}
          errors={{ hospitals: errors.hospitals, agencies: errors.agencies }}
        />
        <div className="form-actions">
          <button className="button button-primary" type="submit" disabled={invite.isPending}>
            {invite.isPending ? 'Inviting…' : 'Invite and create one-time password'}
          </button>
          <button className="button" type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
