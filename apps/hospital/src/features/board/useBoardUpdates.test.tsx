import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BoardResponse, RealtimeEvent } from '@inbound/contract';
import { useInboundBoard } from './queries';
import { useBoardUpdates } from './useBoardUpdates';

// The board's wiring between /realtime and the board read: the channel handlers are captured, the API
// is a mock whose answers the test releases.
const channel = vi.hoisted(() => ({
  handlers: null as null | { onEvent: (event: RealtimeEvent) => void; onSubscribed?: () => void },
  name: null as string | null,
}));
vi.mock('../../lib/realtime/realtime', () => ({
  useChannel: (name: string, handlers: NonNullable<typeof channel.handlers>) => {
    channel.name = name;
    channel.handlers = handlers;
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

const notice = (caseId: string): RealtimeEvent => ({ type: 'case.updated', data: { caseId, event: null } });

/** Board reads the test holds open until it releases them. */
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
    for (let i = 0; i < 20; i++) channel.handlers!.onEvent(notice(`case-${i}`));
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(2));
    // While that read is open, more notices: no second read at the same time…
    channel.handlers!.onEvent(notice('case-3'));
    channel.handlers!.onEvent(notice('case-4'));
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

  it('ignores other notices, and reads the board again on every (re)subscription', async () => {
    const release = heldReads();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <Board />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(1));
    release[0]!();
    channel.handlers!.onEvent({ type: 'broadcast.sent', data: {} });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.call).toHaveBeenCalledTimes(1);
    channel.handlers!.onSubscribed!();
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(2));
    release[1]!();
  });
});
