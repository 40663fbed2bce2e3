/**
 * The security audit trail (issue 17; docs/security/audit.md): sign-ins, failed sign-ins, MFA changes,
 * every change of a case (security log) and hospital staff's reads of cases (reads log), filtered by
 * chain, user, case and time, a page at a time; and the result of walking every hash chain now (the
 * server's `audit:verify` code). Ids only: the trail holds no patient data.
 */
import { useState } from 'react';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import type { AuditTrailEntry, AuditTrailLog, AuditTrailQuery } from '@inbound/contract';
import { api } from '../../../lib/client';
import { useAdminUsers } from '../users/queries';

const PAGE_SIZE = 50;
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

interface TrailFilter {
  log: AuditTrailLog;
  userId: string;
  caseId: string;
  chain: string;
  /** datetime-local values (the browser's local time). */
  from: string;
  to: string;
}

const iso = (local: string): string | undefined => (local === '' ? undefined : new Date(local).toISOString());

function useAuditTrail(filter: TrailFilter) {
  return useInfiniteQuery({
    queryKey: ['admin', 'audit-trail', filter],
    queryFn: ({ pageParam }) => {
      const query: AuditTrailQuery = { log: filter.log, limit: PAGE_SIZE };
      if (filter.userId) query.userId = filter.userId;
      if (filter.caseId.trim()) query.caseId = filter.caseId.trim();
      if (filter.chain.trim()) query.chain = filter.chain.trim();
      const from = iso(filter.from);
      const to = iso(filter.to);
      if (from) query.from = from;
      if (to) query.to = to;
      if (pageParam) query.cursor = pageParam;
      return api('adminAuditTrail', { query });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function AuditTrailPage() {
  const [filter, setFilter] = useState<TrailFilter>({
    log: 'security',
    userId: '',
    caseId: '',
    chain: '',
    from: '',
    to: '',
  });
  const set = (patch: Partial<TrailFilter>) => setFilter((current) => ({ ...current, ...patch }));
  const users = useAdminUsers({});
  const trail = useAuditTrail(filter);
  const verify = useMutation({ mutationFn: () => api('adminAuditVerify') });
  const entries = trail.data?.pages.flatMap((page) => page.entries) ?? [];
  const nameOf = new Map(users.data?.users.map((u) => [u.id, u.displayName]) ?? []);

  return (
    <>
      <div className="admin-page-head">
        <h2>Security audit</h2>
        <button className="button" type="button" disabled={verify.isPending} onClick={() => verify.mutate()}>
          {verify.isPending ? 'Checking the chains…' : 'Check the hash chains now'}
        </button>
      </div>
      {verify.error && (
        <div role="alert" className="banner banner-error">
          {verify.error.message}
        </div>
      )}
      {verify.data &&
        (verify.data.holds ? (
          <div role="status" className="banner banner-ok">
            All {verify.data.chains.length} chains hold: {verify.data.rows} entries checked at{' '}
            {when.format(new Date(verify.data.checkedAt))}. Nothing was changed, removed or cut off.
          </div>
        ) : (
          <div role="alert" className="banner banner-error">
            <p>The audit trail was tampered with — the first broken link of each chain:</p>
            <ul>
              {verify.data.problems.map((p) => (
                <li key={`${p.table} ${p.chain}`}>
                  {p.table} chain {p.chain}, entry {p.seq}: {p.problem}
                </li>
              ))}
            </ul>
          </div>
        ))}
      <div className="admin-toolbar" role="search" aria-label="Filter the security audit">
        <div className="field">
          <label htmlFor="trail-log">Log</label>
          <select id="trail-log" value={filter.log} onChange={(e) => set({ log: e.target.value as AuditTrailLog })}>
            <option value="security">Sign-ins and changes</option>
            <option value="reads">Reads of cases</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="trail-user">User</label>
          <select id="trail-user" value={filter.userId} onChange={(e) => set({ userId: e.target.value })}>
            <option value="">Anyone</option>
            {users.data?.users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.displayName} ({user.username})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="trail-case">Case id</label>
          <input id="trail-case" value={filter.caseId} onChange={(e) => set({ caseId: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="trail-chain">Chain</label>
          <input
            id="trail-chain"
            placeholder="e.g. auth:3"
            value={filter.chain}
            onChange={(e) => set({ chain: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="trail-from">From</label>
          <input
            id="trail-from"
            type="datetime-local"
            value={filter.from}
            onChange={(e) => set({ from: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="trail-to">Until</label>
          <input id="trail-to" type="datetime-local" value={filter.to} onChange={(e) => set({ to: e.target.value })} />
        </div>
      </div>

      {trail.error && (
        <div role="alert" className="banner banner-error">
          {trail.error.message}
        </div>
      )}
      {trail.isPending && <p role="status">Loading the security audit…</p>}
      {trail.data && entries.length === 0 && <p className="muted">No entries for this filter.</p>}
      {entries.length > 0 && (
        <table className="admin-table" aria-label="Security audit entries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Chain</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <TrailRow
                key={entry.id}
                entry={entry}
                who={entry.actorId ? (nameOf.get(entry.actorId) ?? entry.actorId) : 'unknown name'}
              />
            ))}
          </tbody>
        </table>
      )}
      {trail.hasNextPage && (
        <div>
          <button
            className="button"
            type="button"
            disabled={trail.isFetchingNextPage}
            onClick={() => void trail.fetchNextPage()}
          >
            {trail.isFetchingNextPage ? 'Loading…' : 'Show older entries'}
          </button>
        </div>
      )}
    </>
  );
}

function TrailRow({ entry, who }: { entry: AuditTrailEntry; who: string }) {
  const detail = Object.entries(entry.detail ?? {})
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(' · ');
  return (
    <tr>
      <td className="audit-when">
        <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
      </td>
      <td>{who}</td>
      <td>
        {entry.action}
        <span className="cell-sub">
          {entry.entityType} {entry.entityId}
          {entry.caseId && entry.caseId !== entry.entityId ? ` · case ${entry.caseId}` : ''}
        </span>
        {detail && <span className="cell-sub">{detail}</span>}
      </td>
      <td>
        <code>{entry.chainRef}</code>
      </td>
    </tr>
  );
}
