import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AdminUser, User } from '@inbound/contract';
import { UsersPage } from './UsersPage';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const me: User = {
  id: 'u-admin',
  _id: 'u-admin',
  username: 'admin',
  email: null,
  displayName: 'Morgan Lee',
  features: [],
  emsAgencyMemberships: [],
  emsAgenciesAdministered: [],
  hospitalMemberships: [],
  roles: ['orgAdmin'],
  mustChangePassword: false,
};

const user = (over: Partial<AdminUser>): AdminUser => ({
  id: 'u-1',
  username: 'ed1',
  displayName: 'Taylor Brooks',
  email: 'ed1@inbound.example',
  roles: ['edStaff'],
  disabled: false,
  mustChangePassword: false,
  agencies: [],
  hospitals: [{ id: 'h-river', name: 'Riverside Regional' }],
  createdAt: '2026-11-22T04:00:00.000Z',
  updatedAt: '2026-11-22T04:00:00.000Z',
  ...over,
});

const options = {
  agencies: [{ id: 'a-river', name: 'Riverside EMS' }],
  hospitals: [
    { id: 'h-river', name: 'Riverside Regional' },
    { id: 'h-mary', name: "St. Mary's" },
  ],
};

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** A server with the users given; answers writes with `answer` (or a sensible success). */
function mockServer(users: AdminUser[], answer?: (call: Call) => Response) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    if (url.endsWith('/v4/users/me')) return Promise.resolve(json(200, me));
    if (url.includes('/v4/admin/membership-options')) return Promise.resolve(json(200, options));
    if (method === 'GET' && url.includes('/v4/admin/users')) {
      const q = new URL(url, 'http://x').searchParams.get('q')?.toLowerCase();
      const found = users.filter((u) => !q || u.displayName.toLowerCase().includes(q) || u.username.includes(q));
      return Promise.resolve(json(200, { users: found, truncated: false }));
    }
    if (answer) return Promise.resolve(answer({ method, url, body }));
    return Promise.resolve(json(500, { message: 'unexpected call' }));
  });
  return calls;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <UsersPage />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('UsersPage', () => {
  it('lists users with roles, memberships and status, and searches', async () => {
    const calls = mockServer([
      user({}),
      user({
        id: 'u-2',
        username: 'medic9',
        displayName: 'Old Medic',
        roles: ['crew'],
        disabled: true,
        hospitals: [],
        agencies: [{ id: 'a-river', name: 'Riverside EMS', role: 'admin' }],
      }),
    ]);
    renderPage();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('Taylor Brooks')).toBeTruthy();
    expect(within(rows[1]!).getByText('ED · Riverside Regional')).toBeTruthy();
    expect(within(rows[2]!).getByText('Disabled')).toBeTruthy();
    expect(within(rows[2]!).getByText('Riverside EMS (agency admin)')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Search users'), 'taylor');
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2));
    expect(calls.some((c) => c.url.includes('q=taylor'))).toBe(true);
  });

  it('checks the invitation before sending, then shows the one-time password once', async () => {
    const calls = mockServer([user({})], () =>
      json(201, {
        user: user({ id: 'u-new', username: 'dreyes', displayName: 'Dana Reyes', mustChangePassword: true }),
        oneTimePassword: 'abcd-efgh-jkmn-pqrs-tuvw',
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    const submit = await screen.findByRole('button', { name: 'Invite and create one-time password' });
    await userEvent.click(submit);
    expect(screen.getByText('username must be at least 3 characters')).toBeTruthy();
    expect(screen.getByText('displayName is required')).toBeTruthy();
    expect(screen.getByText('ED staff need at least one hospital')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Username'), 'dreyes');
    await userEvent.type(screen.getByLabelText('Full name'), 'Dana Reyes');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Riverside Regional' }));
    await userEvent.click(submit);

    const otp = await screen.findByTestId('one-time-password');
    expect(otp.textContent).toBe('abcd-efgh-jkmn-pqrs-tuvw');
    expect(screen.getByRole('heading', { name: 'Invited Dana Reyes (dreyes)' })).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      username: 'dreyes',
      displayName: 'Dana Reyes',
      email: null,
      kind: 'edStaff',
      agencies: [],
      hospitals: ['h-river'],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('one-time-password')).toBeNull();
  });

  it("shows the server's refusal as it is", async () => {
    mockServer([user({})], () => json(409, { message: 'That username is already in use.' }));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    await userEvent.type(await screen.findByLabelText('Username'), 'ed1');
    await userEvent.type(screen.getByLabelText('Full name'), 'Someone');
    await userEvent.click(screen.getByRole('radio', { name: /Organisation admin/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Invite and create one-time password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That username is already in use.');
  });

  it('edits memberships and roles, and disables only after confirming', async () => {
    const calls = mockServer([user({})], (call) =>
      call.url.endsWith('/disable')
        ? json(200, user({ disabled: true }))
        : json(200, user({ hospitals: [{ id: 'h-mary', name: "St. Mary's" }] })),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Taylor Brooks' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Riverside Regional' }));
    await userEvent.click(screen.getByRole('checkbox', { name: "St. Mary's" }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Crew' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toContain('/v4/admin/users/u-1');
    expect(patch?.body).toMatchObject({ roles: ['edStaff', 'crew'], hospitals: ['h-mary'], agencies: [] });

    // No roles at all is refused before the call.
    await userEvent.click(screen.getByRole('checkbox', { name: 'ED staff' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Crew' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByText('roles needs at least one role')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Disable account…' }));
    expect(calls.some((c) => c.url.endsWith('/disable'))).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Disable ed1' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/v4/admin/users/u-1/disable'))).toBe(true),
    );
  });

  it('offers no Disable for the signed-in admin themselves', async () => {
    mockServer([
      user({ id: 'u-admin', username: 'admin', displayName: 'Morgan Lee', roles: ['orgAdmin'], hospitals: [] }),
    ]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Morgan Lee' }));
    await screen.findByRole('button', { name: 'Save changes' });
    expect(screen.queryByRole('button', { name: 'Disable account…' })).toBeNull();
  });
});
