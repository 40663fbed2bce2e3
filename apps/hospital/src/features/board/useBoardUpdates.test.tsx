import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MessageListener } from '@inbound/client';
import type {
  BoardCase,
  BoardCaseDetail,
  BoardResponse,
  HospitalCaseCard,
  HospitalCaseUpdated,
  RealtimeEvent,
} from '@inbound/contract';
import { boardKeys, useInboundBoard } from './queries';
import { useBoardUpdates } from './useBoardUpdates';

// The board's wiring between /realtime and the board: the channel listener is captured (the messages it
// gets are already parsed by the shared client), the API is a mock whose answers the test releases.
const channel = vi.hoisted(() => ({
  handlers: null as null | MessageListener<'hospital'>,
  name: null as string | null,
}));
vi.mock('../../lib/realtime/realtime', () => ({
  useChannelMessages: (kind: string, id: string, listener: MessageListener<'hospital'>) => {
    channel.name = `${kind}:${id}`;
    channel.handlers = listener;
  },
}));
const api = vi.hoisted(() => ({ call: vi.fn<(name: string) => Promise<unknown>>() }));
vi.mock('../../lib/client', () => ({ api: (name: string) => api.call(name) }));

const BOARD: BoardResponse = { hospital: { id: 'h1', name: 'Riverside', location: null }, open: [], history: [] };

function Board() {
  useBoardUpdates('h1');
  const board = useInboundBoard('h1');
  return <p>{board.isSuccess ? 'loaded' : 'loading'}</p>;
}

/** A notice of an older server, without the card: this console cannot apply it and reads the board. */
const notice = (caseId: string): RealtimeEvent => ({ type: 'case.updated', data: { caseId, event: null } });

function card(id: string, overrides: Partial<BoardCase> = {}): BoardCase {
  return {
    id,
    caseNumber: `N-${id}`,
    complaint: null,
    tags: [],
    age: 67,
    agePeriod: 3,
    gender: 'F',
    agency: { id: 'a', name: 'Riverside EMS' },
    truck: { id: 't', name: 'Medic 1', isALS: true },
    startedAt: '2026-11-22T11:30:00.000Z',
    arrivedAt: null,
    closedAt: null,
    lastLocation: null,
    acknowledgement: null,
    unreadChat: 0,
    mediaCount: 0,
    ...overrides,
  };
}

/** The hospital channel's `case.updated` with the card after the change (`null`: no longer coming). */
function cardMessage(caseId: string, after: BoardCase | null) {
  const data: HospitalCaseUpdated = {
    caseId,
    card: after,
    event: {
      id: `e-${caseId}`,
      caseId,
      seq: 2,
      createdAt: '2026-11-22T11:40:00.000Z',
      clientCreatedAt: null,
      actorUserId: 'u1',
      type: 'gender',
      payload: { gender: 'M' },
    },
  };
  return { type: 'case.updated' as const, data };
}

/** Board reads the test holds open until it releases them. */
/** The board drawn and its first read in, with these open cards; `board()` is the cached board as it is now. */
async function renderLoadedBoard(open: BoardCase[]) {
  api.call.mockResolvedValue({ ...BOARD, open });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Board />
    </QueryClientProvider>,
  );
  await waitFor(() => expect(client.getQueryData(boardKeys.board('h1'))).toBeDefined());
  return { client, board: () => client.getQueryData<BoardResponse>(boardKeys.board('h1'))! };
}

function heldReads() {
  const release: (() => void)[] = [];
  api.call.mockImplementation(
    () =>
      new Promise((resolve) => {
        release.push(() => resolve(BOARD));
      }),
  );
  return release;
}

afterEach(() => {
  cleanup();
  api.call.mockReset();
});

describe('useBoardUpdates', () => {
  it('reads the board once for a burst of notices, and again after a notice that came during a read', async () => {
    const release = heldReads();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <Board />
      </QueryClientProvider>,
    );
    expect(channel.name).toBe('hospital:h1');
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(1)); // the first read
    release[0]!();

    // 20 location reports in a burst: one read.
    for (let i = 0; i < 20; i++) channel.handlers!.onUnreadable!(notice(`case-${i}`));
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(2));
    // While that read is open, more notices: no second read at the same time…
    channel.handlers!.onUnreadable!(notice('case-3'));
    channel.handlers!.onUnreadable!(notice('case-4'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.call).toHaveBeenCalledTimes(2);
    // …and once it ends, exactly one more, which sees their changes.
    release[1]!();
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(3));
    release[2]!();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.call).toHaveBeenCalledTimes(3);
    expect(api.call.mock.calls.every(([name]) => name === 'inboundBoard')).toBe(true);
  });

  it('reads the board again on a (re)subscription that may have missed something, not on a resume without a hole', async () => {
    const release = heldReads();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <Board />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(1));
    release[0]!();
    channel.handlers!.onMessage({ type: 'broadcast.sent', data: { broadcastId: 'b1' } }, 2);
    channel.handlers!.onUnreadable!({ type: 'broadcast.sent', data: {} });
    channel.handlers!.onSubscribed!({ seq: 3, resumed: true });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.call).toHaveBeenCalledTimes(1);
    channel.handlers!.onSubscribed!({ seq: 3, resumed: false });
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(2));
    release[1]!();
  });

  it('applies a case change to its one card — replaced, moved to the history on arrival, removed — with no read', async () => {
    const a = card('a');
    const b = card('b');
    const { board } = await renderLoadedBoard([a, b]);
    const before = board();

    channel.handlers!.onMessage(cardMessage('b', { ...b, gender: 'M' }), 2);
    expect(board().open.map((c) => [c.id, c.gender])).toEqual([
      ['a', 'F'],
      ['b', 'M'],
    ]);
    expect(board().open[0]).toBe(before.open[0]); // the other card is the same object: it does not re-render

    channel.handlers!.onMessage(cardMessage('c', card('c')), 3);
    expect(board().open.map((c) => c.id)).toEqual(['a', 'b', 'c']);

    channel.handlers!.onMessage(cardMessage('a', { ...a, arrivedAt: '2026-11-22T12:00:00.000Z' }), 4);
    expect(board().open.map((c) => c.id)).toEqual(['b', 'c']);
    expect(board().history.map((c) => c.id)).toEqual(['a']);

    channel.handlers!.onMessage(cardMessage('c', null), 5);
    expect(board().open.map((c) => c.id)).toEqual(['b']);

    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.call).toHaveBeenCalledTimes(1); // the first read only
  });

  it('applies a card sent without a case event (the unread count moved) to the board and the open detail, with no read', async () => {
    const a = card('a');
    const b = card('b');
    const { client, board } = await renderLoadedBoard([a, b]);
    const detail: BoardCaseDetail = {
      ...b,
      hospital: BOARD.hospital,
      tagHistory: [],
      patientInfo: [],
      mediaCounts: { photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0 },
      route: [],
      timeline: [],
    };
    client.setQueryData(boardKeys.detail('h1', 'b'), detail);
    const before = board();

    const unread = (count: number) => {
      const data: HospitalCaseCard = { caseId: 'b', card: { ...b, unreadChat: count } };
      return { type: 'case.card' as const, data };
    };
    channel.handlers!.onMessage(unread(1), 2);
    expect(board().open.map((c) => [c.id, c.unreadChat])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
    expect(board().open[0]).toBe(before.open[0]);
    expect(client.getQueryData<BoardCaseDetail>(boardKeys.detail('h1', 'b'))?.unreadChat).toBe(1);
    // Read on another console: the count drops here too.
    channel.handlers!.onMessage(unread(0), 3);
    expect(board().open.find((c) => c.id === 'b')?.unreadChat).toBe(0);
    expect(client.getQueryData<BoardCaseDetail>(boardKeys.detail('h1', 'b'))?.unreadChat).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.call).toHaveBeenCalledTimes(1); // the first read only
  });
});
