/**
 * One side of a voice call on the browser's WebRTC (issue 12), for both apps: the crew calls (offerer),
 * the console that answered answers. Signals go out as `POST /v4/calls/{id}/signal` and come in on the
 * call's channel `call:{id}`, read from its first message so that an offer and candidates sent before
 * this side subscribed are not missed. Audio only; the server never carries media.
 *
 * The connection itself (candidate batches, ICE restarts, mute that sends nothing, the stats) is
 * peerLink.ts, shared with the live consult's mesh.
 */
import {
  CALL_ALIVE_INTERVAL_MS,
  CALL_EVENTS,
  type Call,
  type CallChannelMessage,
  type CallSignalBody,
  type IceConfig,
  type RouteName,
} from '@inbound/contract';
import type { CallOptions } from '../apiClient';
import type { RealtimeClient } from '../realtime/realtimeClient';
import { subscribeChannel } from '../realtime/channels';
import { createPeerLink, type CallQuality, type PeerState } from './peerLink';

export { LOST_AFTER_MS, type CallQuality, type PeerState } from './peerLink';

export type ApiCall = <K extends RouteName>(name: K, options?: CallOptions<K>) => Promise<unknown>;

export interface CallPeerOptions {
  api: ApiCall;
  realtime: RealtimeClient;
  callId: string;
  /** The signed-in user: signals from this user are this side's own. */
  selfUserId: string;
  role: 'caller' | 'answerer';
  ice: IceConfig;
  localStream: MediaStream;
  onState(state: PeerState): void;
  onRemoteStream(stream: MediaStream): void;
  /** The call answered (for the caller) or ended (both), as the server says. */
  onCallChanged(call: Call, how: 'answered' | 'ended'): void;
  /** A signal could not be sent or applied. */
  onError(error: unknown): void;
}

export interface CallPeer {
  setMuted(muted: boolean): Promise<void>;
  quality(): Promise<CallQuality>;
  close(): void;
  readonly connection: RTCPeerConnection;
}

export function createCallPeer(options: CallPeerOptions): CallPeer {
  const { api, callId } = options;
  let closed = false;
  const link = createPeerLink({
    ice: options.ice,
    localStream: options.localStream,
    kinds: ['audio'],
    offerer: options.role === 'caller',
    send: (body: CallSignalBody) => api('signalCall', { params: { callId }, body }),
    onState: options.onState,
    onRemoteStream: options.onRemoteStream,
    onError: options.onError,
  });
  // Still in the call: without these from either side for CALL_ALIVE_TIMEOUT_MS the server ends it as lost
  // (both browsers gone). A failed one is not an error: the next one, or the connection's state, tells.
  const aliveTimer = setInterval(() => {
    if (!closed) void api('callAlive', { params: { callId } }).catch(() => undefined);
  }, CALL_ALIVE_INTERVAL_MS);

  function onMessage(message: CallChannelMessage) {
    if (closed) return;
    if (message.type === CALL_EVENTS.answered) return options.onCallChanged(message.data.call, 'answered');
    if (message.type === CALL_EVENTS.ended) return options.onCallChanged(message.data.call, 'ended');
    const signal = message.data;
    if (signal.from === options.selfUserId) return;
    link.receive({
      ...(signal.description ? { description: signal.description } : {}),
      ...(signal.candidates ? { candidates: signal.candidates } : {}),
    });
  }

  const unsubscribe = subscribeChannel(
    options.realtime,
    'call',
    callId,
    { onMessage, onError: (message) => options.onError(new Error(message)) },
    { fromStart: true },
  );

  return {
    connection: link.connection,
    setMuted: (muted) => link.setSending('audio', !muted),
    quality: () => link.quality(),
    close() {
      if (closed) return;
      closed = true;
      clearInterval(aliveTimer);
      unsubscribe();
      link.close();
    },
  };
}
