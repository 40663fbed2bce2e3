import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AdminAuditEntry } from '@inbound/contract';
import { AuditLogPage } from './AuditLogPage';
import { auditDiff } from './auditDiff';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const entry = (n: number, over: Partial<AdminAuditEntry> = {}): AdminAuditEntry => ({
  id: `e${n}`,
  at: `2026-11-22T05:${String(59 - n).padStart(2, '0')}:00.000Z`,
  actor: { id: 'u-admin', name: 'Morgan Lee' },
  action: 'user.update',
  entityType: 'user',
  entityId: 'u-1',
  summary: `Change ${n}`,
  before: { disabled: false, roles: ['edStaff'] },
  after: { disabled: true, roles: ['edStaff'] },
  ...over,
});

function mockServer() {
  const urls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    const url = String(input);
    urls.push(url);
    if (url.includes('/v4/admin/users')) {
      return Promise.resolve(
        json(200, {
          users: [
            {
              id: 'u-1',
              username: 'ed1',
              displayName: 'Taylor Brooks',
              email: null,
              roles: ['edStaff'],
              disabled: false,
              mustChangePassword: false,
              agencies: [],
              hospitals: [],
              createdAt: '2026-11-22T04:00:00.000Z',
              updatedAt: '2026-11-22T04:00:00.000Z',
            },
          ],
          truncated: false,
        }),
      );
    }
    const cursor = new URL(url, 'http://x').searchParams.get('cursor');
    if (cursor === 'page2') return Promise.resolve(json(200, { entries: [entry(3)], nextCursor: null }));
    return Promise.resolve(
      json(200, {
        entries: [
          entry(1),
          entry(2, { action: 'user.invite', summary: 'Invited Dana Reyes (dreyes) as ED staff', before: null }),
        ],
        nextCursor: 'page2',
      }),
    );
  });
  return urls;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('AuditLogPage', () => {
  it('lists entries newest first, pages on, and filters by type and user', async () => {
    const urls = mockServer();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AuditLogPage />
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Audit log entries' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      expect.stringContaining('When'),
      expect.stringContaining('Change 1'),
      expect.stringContaining('Invited Dana Reyes (dreyes) as ED staff'),
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Show older entries' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull();

    await userEvent.selectOptions(screen.getByLabelText('What'), 'hospital');
    await waitFor(() => expect(urls.some((u) => u.includes('entityType=hospital'))).toBe(true));
    await userEvent.selectOptions(await screen.findByLabelText('About user'), 'u-1');
    await waitFor(() =>
      expect(urls.some((u) => u.includes('entityType=user') && u.includes('entityId=u-1'))).toBe(true),
    );
  });

  it('describes what changed field by field', () => {
    expect(auditDiff({ disabled: false, roles: ['edStaff'] }, { disabled: true, roles: ['edStaff'] })).toEqual([
      { field: 'disabled', before: 'no', after: 'yes' },
    ]);
    expect(auditDiff(null, { hospitals: ['Riverside'] })).toEqual([
      { field: 'hospitals', before: null, after: 'Riverside' },
    ]);
  });
});
