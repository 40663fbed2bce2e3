import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TEAM_KINDS, TEAM_KIND_NAMES, type HospitalTeam, type TeamKind } from '@inbound/contract';
import { api } from '../../lib/client';
import { useAdminHospitals } from '../admin/hospitals/queries';
import { TextField } from '../admin/TextField';
import { ChargeNursesPanel } from '../chargeNurse/ChargeNursesPanel';
import { activationKeys, useTeams } from './queries';
import '../admin/agencies/catalog.css';
import './activation.css';

type Role = 'member' | 'backup' | 'none';
interface Draft {
  id: string | null;
  kind: TeamKind;
  name: string;
  roles: Record<string, Role>;
}

const emptyDraft = (kind: TeamKind = 'stroke'): Draft => ({ id: null, kind, name: TEAM_KIND_NAMES[kind], roles: {} });

/**
 * Administration → Teams: a hospital's activation teams (Stroke, STEMI, Trauma, Sepsis, Pediatric).
 * Members are the hospital's ED staff; backups are called when nobody answers for 20 minutes.
 */
export function TeamsPage() {
  const hospitals = useAdminHospitals();
  const onPlatform = (hospitals.data ?? []).filter((h) => !h.nonTwiage);
  const [chosen, setChosen] = useState<string | null>(null);
  const hospitalId = chosen ?? onPlatform[0]?.id ?? null;
  const teams = useTeams(hospitalId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (d: Draft) => {
      const body = {
        kind: d.kind,
        name: d.name,
        members: Object.entries(d.roles)
          .filter(([, role]) => role !== 'none')
          .map(([userId, role]) => ({ userId, backup: role === 'backup' })),
      };
      const id = hospitalId ?? '';
      return d.id === null
        ? api('createTeam', { params: { id }, body })
        : api('updateTeam', { params: { id, teamId: d.id }, body });
    },
    onSuccess: () => {
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: activationKeys.teams(hospitalId ?? '') });
    },
  });
  const remove = useMutation({
    mutationFn: (teamId: string) => api('deleteTeam', { params: { id: hospitalId ?? '', teamId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: activationKeys.teams(hospitalId ?? '') }),
  });
  const edit = (t: HospitalTeam) => {
    save.reset();
    setDraft({
      id: t._id,
      kind: t.kind,
      name: t.name,
      roles: Object.fromEntries(t.members.map((m) => [m.userId, m.backup ? 'backup' : 'member'])),
    });
  };

  return (
    <div className="admin-page">
      <div className="admin-page-head">
        <h2>Teams</h2>
        <button
          type="button"
          className="button button-primary"
          disabled={hospitalId === null}
          onClick={() => {
            save.reset();
            setDraft(emptyDraft());
          }}
        >
          New team
        </button>
      </div>
      <div className="field teams-hospital">
        <label htmlFor="teams-hospital">Hospital</label>
        <select id="teams-hospital" value={hospitalId ?? ''} onChange={(e) => setChosen(e.target.value)}>
          {onPlatform.map((h) => (
            <option key={h.id} value={h.id}>
              {h.name}
            </option>
          ))}
        </select>
      </div>
      {teams.isError && (
        <div role="alert" className="banner banner-error">
          {teams.error.message}
        </div>
      )}
      {teams.data && (
        <table className="admin-table">
          <caption className="visually-hidden">Teams</caption>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Members</th>
              <th scope="col">Backups</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {teams.data.data.length === 0 && (
              <tr>
                <td colSpan={4} className="muted">
                  No teams yet.
                </td>
              </tr>
            )}
            {teams.data.data.map((t) => (
              <tr key={t._id}>
                <td className="admin-strong">{t.name}</td>
                <td>
                  {t.members
                    .filter((m) => !m.backup)
                    .map((m) => m.name)
                    .join(', ')}
                </td>
                <td>
                  {t.members
                    .filter((m) => m.backup)
                    .map((m) => m.name)
                    .join(', ') || <span className="muted">None</span>}
                </td>
                <td className="admin-row-actions">
                  <button type="button" className="button button-small" onClick={() => edit(t)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button button-small button-danger-quiet"
                    onClick={() => remove.mutate(t._id)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {draft && teams.data && (
        <form
          className="admin-form panel"
          aria-label={draft.id ? 'Edit team' : 'New team'}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(draft);
          }}
        >
          <h3>{draft.id ? `Edit ${draft.name}` : 'New team'}</h3>
          <div className="field">
            <label htmlFor="team-kind">Kind</label>
            <select
              id="team-kind"
              value={draft.kind}
              onChange={(e) => {
                const kind = e.target.value as TeamKind;
                setDraft({
                  ...draft,
                  kind,
                  name: draft.name === TEAM_KIND_NAMES[draft.kind] ? TEAM_KIND_NAMES[kind] : draft.name,
                });
              }}
            >
              {TEAM_KINDS.map((k) => (
                <option key={k} value={k}>
                  {TEAM_KIND_NAMES[k]}
                </option>
              ))}
            </select>
          </div>
          <TextField id="team-name" label="Name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
          <fieldset>
            <legend>Members (the hospital's ED staff)</legend>
            <table className="admin-table team-members-table">
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col">Member</th>
                  <th scope="col">Backup</th>
                  <th scope="col">Not in team</th>
                </tr>
              </thead>
              <tbody>
                {teams.data.staff.map((s) => {
                  const role = draft.roles[s.userId] ?? 'none';
                  const set = (r: Role) => setDraft({ ...draft, roles: { ...draft.roles, [s.userId]: r } });
                  return (
                    <tr key={s.userId}>
                      <th scope="row">{s.name}</th>
                      {(['member', 'backup', 'none'] as const).map((r) => (
                        <td key={r}>
                          <input
                            type="radio"
                            name={`role-${s.userId}`}
                            aria-label={`${s.name}: ${r === 'none' ? 'not in team' : r}`}
                            checked={role === r}
                            onChange={() => set(r)}
                          />
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </fieldset>
          {save.error && (
            <div role="alert" className="banner banner-error">
              {save.error.message}
            </div>
          )}
          <div className="activation-buttons">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              Save team
            </button>
            <button type="button" className="button" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {hospitalId !== null && <ChargeNursesPanel hospitalId={hospitalId} />}
    </div>
  );
}
