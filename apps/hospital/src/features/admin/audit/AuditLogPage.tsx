/**
 * The administration audit log: every change made by an organisation admin, newest first, filtered by
 * the kind of thing changed, the user it was about, or who made it; older pages on request.
 */
import { useState } from 'react';
import { ADMIN_ENTITY_TYPES, type AdminAuditEntry, type AdminEntityType } from '@inbound/contract';
import { useAdminUsers } from '../users/queries';
import { auditDiff } from './auditDiff';
import { useAuditLog, type AuditFilter } from './queries';

const TYPE_LABELS: Record<AdminEntityType, string> = {
  user: 'Users',
  agency: 'Agencies',
  hospital: 'Hospitals',
  complaintSet: 'Complaint sets',
  truck: 'Trucks',
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function AuditLogPage() {
  const [entityType, setEntityType] = useState('');
  const [aboutUser, setAboutUser] = useState('');
  const [actorId, setActorId] = useState('');
  const users = useAdminUsers({});
  const filter: AuditFilter = aboutUser
    ? { entityType: 'user', entityId: aboutUser }
    : { ...(entityType ? { entityType } : {}) };
  if (actorId) filter.actorId = actorId;
  const log = useAuditLog(filter);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  const admins = users.data?.users.filter((u) => u.roles.includes('orgAdmin')) ?? [];

  return (
    <>
      <div className="admin-page-head">
        <h2>Audit log</h2>
      </div>
      <div className="admin-toolbar" role="search" aria-label="Filter the audit log">
        <div className="field">
          <label htmlFor="audit-type">What</label>
          <select
            id="audit-type"
            value={aboutUser ? 'user' : entityType}
            disabled={aboutUser !== ''}
            onChange={(event) => setEntityType(event.target.value)}
          >
            <option value="">Everything</option>
            {ADMIN_ENTITY_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-user">About user</label>
          <select id="audit-user" value={aboutUser} onChange={(event) => setAboutUser(event.target.value)}>
            <option value="">Any user</option>
            {users.data?.users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.displayName} ({user.username})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-actor">Changed by</label>
          <select id="audit-actor" value={actorId} onChange={(event) => setActorId(event.target.value)}>
            <option value="">Any admin</option>
            {admins.map((user) => (
              <option key={user.id} value={user.id}>
                {user.displayName}
              </option>
            ))}
          </select>
        </div>
      </div>

      {log.error && (
        <div role="alert" className="banner banner-error">
          {log.error.message}
        </div>
      )}
      {log.isPending && <p role="status">Loading the audit log…</p>}
      {log.data && entries.length === 0 && (
        <p className="muted">No changes recorded{filter.entityType || filter.actorId ? ' for this filter' : ''}.</p>
      )}
      {entries.length > 0 && (
        <table className="admin-table" aria-label="Audit log entries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Changed by</th>
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </tbody>
        </table>
      )}
      {log.hasNextPage && (
        <div>
          <button
            className="button"
            type="button"
            disabled={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {log.isFetchingNextPage ? 'Loading…' : 'Show older entries'}
          </button>
        </div>
      )}
    </>
  );
}

function AuditRow({ entry }: { entry: AdminAuditEntry }) {
  const diff = auditDiff(entry.before, entry.after);
  return (
    <tr>
      <td className="audit-when">
        <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
      </td>
      <td>{entry.actor.name}</td>
      <td>
        {entry.summary}
        <span className="cell-sub">{entry.action}</span>
        {diff.length > 0 && (
          <details className="audit-details">
            <summary>Before and after</summary>
            <dl className="audit-diff">
              {diff.map((row) => (
                <div key={row.field} style={{ display: 'contents' }}>
                  <dt>{row.field}</dt>
                  <dd className="was">{row.before ?? ''}</dd>
                  <dd className="now">{row.after ?? ''}</dd>
                </div>
              ))}
            </dl>
          </details>
        )}
      </td>
    </tr>
  );
}
