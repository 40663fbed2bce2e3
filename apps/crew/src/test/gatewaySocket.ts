/**
 * The app's real-time socket in component tests: the test plays the gateway. The app connects once the
 * session has loaded (which may be after the first screen shows), so this waits for the socket, opens
 * it and confirms the channels given (each at its sequence number).
 */
import { act, waitFor } from '@testing-library/react';
import { FakeWebSocket } from '@inbound/client/testing';

export async function gatewaySocket(subscribed: Record<string, number> = {}): Promise<FakeWebSocket> {
  const socket = await waitFor(() => {
    const last = FakeWebSocket.last();
    if (!last) throw new Error('no socket opened');
    return last;
  });
  act(() => {
    socket.open();
    for (const [channel, seq] of Object.entries(subscribed)) socket.frame({ type: 'subscribed', channel, seq });
  });
  return socket;
}
