import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BroadcastMessage } from '@inbound/contract';
import { BroadcastComposer } from './BroadcastComposer';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const recipients = {
  agencies: [
    { _id: 'a-lake', name: 'Lakeside Fire Rescue' },
    { _id: 'a-river', name: 'Riverside EMS' },
  ],
};

function broadcastFrom(
  body: { content: string; urgent: boolean; emsAgencyIds: string[] },
  id: string,
): BroadcastMessage {
  return {
    _id: id,
    timestamp: '2026-11-22T04:00:00.000Z',
    content: body.content,
    urgent: body.urgent,
    type: null,
    caseNumber: null,
    senderOrganizationName: "St. Mary's Hospital",
    emsAgencies: body.emsAgencyIds,
  };
}

/** The server: recipients, then each send answered by `sendAnswers` in turn (a status, or 201). */
function mockServer(sendAnswers: number[]) {
  const sends: { key: string | null; body: { content: string; urgent: boolean; emsAgencyIds: string[] } }[] = [];
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = String(input);
    if (url.endsWith('/v4/hospitals/h1/broadcast-recipients')) return Promise.resolve(json(200, recipients));
    const body = JSON.parse(String(init?.body)) as (typeof sends)[number]['body'];
    const key = new Headers(init?.headers).get('Idempotency-Key');
    sends.push({ key, body });
    const status = sendAnswers.shift() ?? 201;
    return Promise.resolve(
      status === 201 ? json(201, broadcastFrom(body, `b${sends.length}`)) : json(status, { message: 'Try later' }),
    );
  });
  return { fetch, sends };
}

function renderComposer() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BroadcastComposer hospitalId="h1" />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('BroadcastComposer', () => {
  it('sends to the chosen agencies, urgent, and lists what was sent', async () => {
    const { sends } = mockServer([]);
    const user = userEvent.setup();
    renderComposer();
    await user.click(await screen.findByLabelText('Riverside EMS'));
    await user.type(screen.getByLabelText('Message'), 'CT down until 06:00');
    await user.click(screen.getByLabelText('Urgent'));
    await user.click(screen.getByRole('button', { name: 'Send broadcast' }));

    const sent = await screen.findByRole('list', { name: 'Sent broadcasts' });
    expect(within(sent).getByRole('listitem').textContent).toContain('CT down until 06:00');
    expect(within(sent).getByRole('listitem').textContent).toContain('Riverside EMS');
    expect(sends).toHaveLength(1);
    expect(sends[0]?.body).toMatchObject({ hospitalId: 'h1', emsAgencyIds: ['a-river'], urgent: true });
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
    const { fetch } = mockServer([]);
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
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
