import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { MessageListener } from '@inbound/client';
import type { Call, CallRing, RingingCallsResponse } from '@inbound/contract';
import { IncomingCalls } from './IncomingCalls';

// The console's ring wiring: the `hospital:{id}` listener is captured (its messages already parsed by
// the shared client), the API is a mock whose answer the test releases, the ring sound a spy.
const channel = vi.hoisted(() => ({ handlers: new Map<string, MessageListener<'hospital'>>() }));
vi.mock('../../lib/realtime/realtime', () => ({
  useChannelMessages: (kind: string, id: string, listener: MessageListener<'hospital'>) => {
    channel.handlers.set(`${kind}:${id}`, listener);
  },
}));
const api = vi.hoisted(() => ({ call: vi.fn<(name: string, input: unknown) => Promise<unknown>>() }));
vi.mock('../../lib/client', () => ({ api: (name: string, input: unknown) => api.call(name, input) }));
vi.mock('../auth/queries', () => ({
  useMe: () => ({ data: { _id: 'ed1', hospitalMemberships: [{ _id: 'h1' }] } }),
}));
const ring = vi.hoisted(() => ({ play: vi.fn() }));
vi.mock('./ringTone', () => ({ playRing: ring.play }));
vi.mock('../board/beep', () => ({ audioBlocked: () => false, unlockAudio: () => undefined }));

function call(id: string, overrides: Partial<Call> = {}): Call {
  return {
    id,
    caseId: `case-${id}`,
    caseNumber: `N-${id}`,
    hospitalId: 'h1',
    state: 'ringing',
    caller: { userId: 'medic1', name: 'Jordan Reyes' },
    answeredBy: null,
    startedAt: new Date(Date.now() - 5_000).toISOString(),
    answeredAt: null,
    endedAt: null,
    outcome: null,
    recording: false,
    ...overrides,
  };
}
const ringOf = (c: Call): CallRing => ({ call: c, card: null });

/** The ringing-calls read held open until the test releases it with its answer. */
function heldRingingRead() {
  let release: (response: RingingCallsResponse) => void = () => undefined;
  api.call.mockImplementation(
    () =>
      new Promise((resolve) => {
        release = resolve;
      }),
  );
  return (response: RingingCallsResponse) => release(response);
}

const hospitalChannel = () => channel.handlers.get('hospital:h1')!;
const incoming = () => screen.queryAllByTestId('incoming-call');

afterEach(() => {
  cleanup();
  channel.handlers.clear();
  api.call.mockReset();
  ring.play.mockReset();
});

describe('IncomingCalls', () => {
  it('rings on a console opened while a call already rings: it asks which calls ring at its hospital', async () => {
    const release = heldRingingRead();
    render(<IncomingCalls />);
    expect(incoming()).toHaveLength(0);

    hospitalChannel().onSubscribed!({ seq: 0, resumed: false });
    expect(api.call).toHaveBeenCalledWith('ringingCalls', { params: { id: 'h1' } });
    release({ rings: [ringOf(call('c1'))] });

    await waitFor(() => expect(incoming()).toHaveLength(1));
    expect(screen.getByText('Incoming call · Case N-c1')).toBeTruthy();
    expect(ring.play).toHaveBeenCalled();
  });

  it('does not ring for a call answered elsewhere while the list was on its way', async () => {
    const release = heldRingingRead();
    render(<IncomingCalls />);
    hospitalChannel().onSubscribed!({ seq: 0, resumed: false });
    const c2 = call('c2');
    hospitalChannel().onMessage(
      {
        type: 'call.answered',
        data: { call: { ...c2, state: 'connected', answeredBy: { userId: 'ed2', name: 'Sam Lee' } } },
      },
      1,
    );
    release({ rings: [ringOf(c2), ringOf(call('c3'))] });

    await waitFor(() => expect(incoming()).toHaveLength(1));
    expect(screen.getByText('Incoming call · Case N-c3')).toBeTruthy();
    expect(screen.queryByText('Incoming call · Case N-c2')).toBeNull();
  });

  it('stays quiet when the console subscribes with nothing ringing, and rings for a ring message after', async () => {
    api.call.mockResolvedValue({ rings: [] });
    render(<IncomingCalls />);
    hospitalChannel().onSubscribed!({ seq: 0, resumed: false });
    await waitFor(() => expect(api.call).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(incoming()).toHaveLength(0);
    expect(ring.play).not.toHaveBeenCalled();

    hospitalChannel().onMessage({ type: 'call.ring', data: ringOf(call('c4')) }, 2);
    await waitFor(() => expect(incoming()).toHaveLength(1));
  });
});
