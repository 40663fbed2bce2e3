import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RealtimeEvent, SentBroadcast } from '@inbound/contract';
import { BroadcastComposer } from './BroadcastComposer';

// The hospital channel's handlers, so a test can deliver what a colleague's console caused.
const channelHandlers = new Map<string, { onEvent: (event: RealtimeEvent) => void }>();
vi.mock('../../lib/realtime/realtime', () => ({
  useChannel: (channel: string, handlers: { onEvent: (event: RealtimeEvent) => void }) => {
    channelHandlers.set(channel, handlers);
  },
}));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const recipients = {
  agencies: [
    { _id: 'a-lake', name: 'Lakeside Fire Rescue' },
    { _id: 'a-river', name: 'Riverside EMS' },
  ],
};
const names = new Map(recipients.agencies.map((a) => [a._id, a.name]));

const dispatchOptions = {
  agencies: [
    {
      _id: 'a-river',
      name: 'Riverside EMS',
      complaints: [
        { id: 'sepsis', name: 'Sepsis', priority: 2 },
        { id: 'stroke', name: 'Stroke', priority: 1 },
      ],
    },
  ],
};

interface Body {
  content?: string;
  urgent: boolean;
  emsAgencyIds?: string[];
  emsAgencyId?: string;
  complaintId?: string | null;
  notes?: string;
}

/**
 * The server: keeps what was sent (newest first, pages of `pageSize`), answers each send or dispatch
 * with the next of `answers` (a status; 201 by default).
 */
function mockServer(answers: number[] = [], pageSize = 20) {
  const sends: { url: string; key: string | null; body: Body }[] = [];
  const stored: SentBroadcast[] = [];
  const sentQueries: string[] = [];
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = String(input);
    if (url.endsWith('/v4/hospitals/h1/broadcast-recipients')) return Promise.resolve(json(200, recipients));
    if (url.endsWith('/v4/hospitals/h1/dispatch-options')) return Promise.resolve(json(200, dispatchOptions));
    if (url.includes('/v4/hospitals/h1/broadcasts')) {
      sentQueries.push(url);
      const cursor = new URL(url, 'http://x').searchParams.get('cursor');
      const start = cursor ? Number(cursor) : 0;
      const data = stored.slice(start, start + pageSize);
      const next = start + pageSize < stored.length ? String(start + pageSize) : null;
      return Promise.resolve(json(200, { data, nextCursor: next }));
    }
    const body = JSON.parse(String(init?.body)) as Body;
    const key = new Headers(init?.headers).get('Idempotency-Key');
    sends.push({ url, key, body });
    const status = answers.shift() ?? 201;
    if (status !== 201) return Promise.resolve(json(status, { message: 'Try later' }));
    const id = `b${sends.length}`;
    if (url.endsWith('/v4/hospitals/h1/dispatches')) {
      const broadcast = sentItem(id, `Case QW-5238 dispatched to you: Stroke. ${body.notes ?? ''}`, body.urgent, [
        body.emsAgencyId ?? '',
      ]);
      broadcast.type = 'emsDispatch';
      broadcast.caseNumber = 'QW-5238';
      stored.unshift(broadcast);
      return Promise.resolve(
        json(201, {
          dispatch: {
            _id: 'd1',
            caseNumber: 'QW-5238',
            hospitalId: 'h1',
            agency: { _id: 'a-river', name: 'Riverside EMS' },
            complaint: { id: 'stroke', name: 'Stroke', color: '#b3001b', priority: 1 },
            notes: body.notes ?? '',
            urgent: body.urgent,
            status: 'awaitingCrew',
            dispatchedAt: '2026-11-22T04:00:00.000Z',
            dispatchedByName: 'Taylor Brooks',
            claim: null,
          },
          broadcast,
        }),
      );
    }
    const broadcast = sentItem(id, body.content ?? '', body.urgent, body.emsAgencyIds ?? []);
    stored.unshift(broadcast);
    return Promise.resolve(json(201, broadcast));
  });
  return { fetch, sends, stored, sentQueries };
}

function sentItem(id: string, content: string, urgent: boolean, agencyIds: string[]): SentBroadcast {
  return {
    _id: id,
    timestamp: '2026-11-22T04:00:00.000Z',
    content,
    urgent,
    type: null,
    caseNumber: null,
    senderOrganizationName: "St. Mary's Hospital",
    emsAgencies: agencyIds,
    agencies: agencyIds.map((_id) => ({ _id, name: names.get(_id) ?? _id })),
    sentByName: 'Taylor Brooks',
  };
}

function renderComposer() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BroadcastComposer hospitalId="h1" />
    </QueryClientProvider>,
  );
}

beforeEach(() => channelHandlers.clear());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('BroadcastComposer', () => {
  it('sends to the chosen agencies, urgent, and lists what the hospital sent', async () => {
    const { sends } = mockServer();
    const user = userEvent.setup();
    renderComposer();
    expect(await screen.findByText('Nothing sent from this hospital yet.')).toBeTruthy();
    await user.click(await screen.findByLabelText('Riverside EMS'));
    await user.type(screen.getByLabelText('Message'), 'CT down until 06:00');
    await user.click(screen.getByLabelText('Urgent'));
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));

    const sent = await screen.findByRole('list', { name: 'Sent broadcasts' });
    const item = within(sent).getByRole('listitem').textContent;
    expect(item).toContain('CT down until 06:00');
    expect(item).toContain('To Riverside EMS');
    expect(item).toContain('Urgent');
    expect(item).toContain('by Taylor Brooks');
    expect(sends).toHaveLength(1);
    expect(sends[0]?.body).toMatchObject({ emsAgencyIds: ['a-river'], urgent: true });
    expect(sends[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
  });

  it('keeps the Idempotency-Key through a retry, and makes a new one for the next message', async () => {
    const { sends } = mockServer([503, 201, 201]);
    const user = userEvent.setup();
    renderComposer();
    await user.click(await screen.findByLabelText('Lakeside Fire Rescue'));
    await user.type(screen.getByLabelText('Message'), 'Trauma bay full');
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Try later');

    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));
    await screen.findByRole('list', { name: 'Sent broadcasts' });
    await user.type(screen.getByLabelText('Message'), 'Trauma bay open again');
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));
    await waitFor(() => expect(sends).toHaveLength(3));

    expect(sends[1]?.key).toBe(sends[0]?.key);
    expect(sends[2]?.key).not.toBe(sends[0]?.key);
  });

  it('asks for an agency and a message before calling the server', async () => {
    const { sends } = mockServer();
    const user = userEvent.setup();
    renderComposer();
    await screen.findByLabelText('Riverside EMS');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));
    expect(screen.getByText('choose at least one agency')).toBeTruthy();
    await user.click(screen.getByLabelText('Riverside EMS'));
    await user.clear(screen.getByLabelText('Message'));
    await user.type(screen.getByLabelText('Message'), '   ');
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));
    expect(screen.getByText('content is required')).toBeTruthy();
    expect(sends).toHaveLength(0);
  });

  it('dispatches a case with the complaint and notes, says its number, and lists the dispatch as sent', async () => {
    const { sends } = mockServer();
    const user = userEvent.setup();
    renderComposer();
    await user.click(await screen.findByRole('button', { name: 'Dispatch a case' }));
    // One agency delivers: it is chosen. Complaints come priority first.
    expect((await screen.findByLabelText<HTMLSelectElement>('Agency')).value).toBe('a-river');
    const complaint = screen.getByLabelText<HTMLSelectElement>('Complaint');
    expect([...complaint.options].map((o) => o.text)).toEqual([
      'Crew chooses',
      'Stroke (priority 1)',
      'Sepsis (priority 2)',
    ]);
    await user.selectOptions(complaint, 'stroke');
    await user.type(screen.getByLabelText('Priority and notes'), 'P1, bay 2 pickup');
    await user.click(screen.getByLabelText('Urgent'));
    await user.click(screen.getByRole('button', { name: 'Dispatch case' }));

    expect((await screen.findByRole('status')).textContent).toBe(
      'Case QW-5238 dispatched to Riverside EMS: awaiting crew.',
    );
    expect(sends[0]?.url).toMatch(/\/v4\/hospitals\/h1\/dispatches$/);
    expect(sends[0]?.body).toEqual({
      emsAgencyId: 'a-river',
      complaintId: 'stroke',
      notes: 'P1, bay 2 pickup',
      urgent: true,
    });
    expect(sends[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    const sent = await screen.findByRole('list', { name: 'Sent broadcasts' });
    expect(within(sent).getByRole('listitem').textContent).toContain('Dispatch QW-5238');
  });

  it('pages older sent messages, and reads the list again when a colleague sends one', async () => {
    const { stored, sentQueries } = mockServer([], 2);
    stored.push(
      sentItem('s3', 'Third', false, ['a-river']),
      sentItem('s2', 'Second', false, ['a-river']),
      sentItem('s1', 'First', false, ['a-lake']),
    );
    const user = userEvent.setup();
    renderComposer();
    const list = await screen.findByRole('list', { name: 'Sent broadcasts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();

    const before = sentQueries.length;
    stored.unshift(sentItem('s4', 'From a colleague', true, ['a-river']));
    channelHandlers.get('hospital:h1')?.onEvent({ type: 'broadcast.sent', data: { broadcastId: 's4' } });
    await waitFor(() => expect(screen.getByText('From a colleague')).toBeTruthy());
    expect(sentQueries.length).toBeGreaterThan(before);
  });
});
