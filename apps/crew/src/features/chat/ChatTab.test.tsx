import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { ChatMessage } from '@inbound/contract';
import { caseOutbox } from '../../lib/caseOutbox';
import { realtime } from '../../lib/realtime';
import { FakeWebSocket } from '@inbound/client/testing';
import { mockFetch, type MockHandler } from '../../test/fetchMock';
import { caseTeam, complaintSet, localCase, medic1, signedInSession } from '../../test/fixtures';
import { gatewaySocket } from '../../test/gatewaySocket';
import { renderApp } from '../../test/renderApp';
import { whenChangesQueued } from '../case/mutations';
import { registerVoiceMemoRecorder } from './voiceMemoRecorder';

const CHAT_PATH = '/notification/twiage-cases/case-1/chat-messages';

function chatMessage(overrides: Partial<ChatMessage> = {}): ChatMessage {
  const at = overrides.createdAt ?? new Date().toISOString();
  return {
    _id: 'm-1',
    caseId: 'case-1',
    timestamp: at,
    clientCreatedAt: at,
    createdAt: at,
    content: 'ETA?',
    source: 'web_hospital',
    senderId: 'u-ed1',
    senderName: 'Dana Cho',
    senderOrganization: 'Riverside Regional Medical Center',
    type: 'CHAT',
    mediaId: null,
    length: null,
    state: 'sent',
    deliveredAt: null,
    readAt: null,
    ...overrides,
  };
}

function session() {
  return {
    ...signedInSession(),
    teams: [caseTeam],
    selectedTeam: caseTeam,
    complaintSet,
    case: localCase(),
    caseActive: true,
  };
}

function server(extra: Record<string, MockHandler> = {}) {
  return mockFetch({
    'GET /notification/broadcast/me': { body: { data: [] } },
    'GET /v4/complaintSets': { body: [complaintSet] },
    [`GET ${CHAT_PATH}`]: { body: { messages: [] } },
    ...extra,
  });
}

async function openChat() {
  const view = renderApp('/case', session());
  await view.user.click(await screen.findByRole('tab', { name: /CHAT/ }));
  return view;
}

/** The gateway accepts the socket the app opened and confirms the case channel. */
const liveSocket = () => gatewaySocket({ 'case:case-1': 0 });

beforeEach(async () => {
  await caseOutbox.clear();
  realtime.close();
  FakeWebSocket.instances = [];
});

afterEach(async () => {
  await caseOutbox.stop();
  realtime.close();
  vi.unstubAllGlobals();
});

describe('CHAT tab', () => {
  it('Enter sends through the outbox; waiting, then sent; whitespace-only is never sent', async () => {
    let answer: (() => void) | null = null;
    const posted = new Promise<void>((resolve) => (answer = resolve));
    const api = server({
      [`POST ${CHAT_PATH}`]: async (request) => {
        await posted;
        const body = request.body as { message: string; clientCreatedAt: string };
        return {
          status: 201,
          body: chatMessage({
            _id: 'm-2',
            content: body.message,
            clientCreatedAt: body.clientCreatedAt,
            source: 'web_ems',
            senderId: medic1.id,
            senderName: medic1.displayName,
          }),
        };
      },
    });
    const { user } = await openChat();
    const input = screen.getByRole('textbox', { name: 'Write a message' });
    // With no text the mic (the case screen registers the voice memo recorder) stands where Send is.
    expect(screen.getByRole('button', { name: 'Record a voice memo' })).toBeInTheDocument();

    await user.type(input, '   {Enter}');
    await whenChangesQueued();
    expect(await caseOutbox.listPending()).toHaveLength(0);

    await user.clear(input);
    await user.type(input, ' Arriving in 5, stroke alert {Enter}');
    expect(input).toHaveValue('');
    const log = await screen.findByRole('log', { name: 'Chat messages' });
    await within(log).findByText('Arriving in 5, stroke alert');
    expect(within(log).getByText('Waiting to send')).toBeInTheDocument();
    const [queued] = await caseOutbox.listPending();
    expect(queued).toMatchObject({ kind: 'chat', method: 'POST', path: CHAT_PATH });

    await caseOutbox.start();
    answer!();
    await within(log).findByText('Sent');
    expect(within(log).queryByText('Waiting to send')).not.toBeInTheDocument();
    const request = api.calls(`POST ${CHAT_PATH}`)[0]!;
    expect(request.body).toMatchObject({
      message: 'Arriving in 5, stroke alert',
      source: 'web_ems',
      deviceId: 'web_ems',
      senderOrganization: caseTeam.name,
      type: 'CHAT',
    });
    expect(request.headers.get('Idempotency-Key')).toBe(queued!.key);
    expect(within(log).getAllByText('Arriving in 5, stroke alert')).toHaveLength(1);
  });

  it("shows the hospital's messages live, the crew's as delivered then read, and an unread badge on CHAT", async () => {
    const mine = chatMessage({ _id: 'm-mine', senderId: medic1.id, content: 'On our way', source: 'web_ems' });
    const api = server({
      [`GET ${CHAT_PATH}`]: { body: { messages: [mine] } },
      [`POST ${CHAT_PATH}/m-h1/delivered`]: {
        body: chatMessage({ _id: 'm-h1', content: 'Bay 3', state: 'delivered' }),
      },
      [`POST ${CHAT_PATH}/m-h1/read`]: { body: chatMessage({ _id: 'm-h1', content: 'Bay 3', state: 'read' }) },
    });
    const { user } = renderApp('/case', session());
    await screen.findByRole('tab', { name: 'CHAT' });
    const socket = await liveSocket();
    expect(socket.subscribedTo('case:case-1')).toBe(true);

    act(() => socket.message('case:case-1', 1, 'chat.message', chatMessage({ _id: 'm-h1', content: 'Bay 3' })));
    expect(await screen.findByRole('tab', { name: 'CHAT, 1 unread' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls(`POST ${CHAT_PATH}/m-h1/delivered`)).toHaveLength(1));

    await user.click(screen.getByRole('tab', { name: /CHAT/ }));
    const log = screen.getByRole('log', { name: 'Chat messages' });
    expect(within(log).getByText('Bay 3')).toBeInTheDocument();
    expect(within(log).getByText(/Dana Cho/)).toBeInTheDocument();
    expect(within(log).getByText('Sent')).toBeInTheDocument();
    await waitFor(() => expect(api.calls(`POST ${CHAT_PATH}/m-h1/read`)).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'CHAT' })).toBeInTheDocument();

    const receipt = (state: 'delivered' | 'read', seq: number) =>
      socket.message('case:case-1', seq, 'chat.receipt', {
        messageId: 'm-mine',
        caseId: 'case-1',
        state,
        deliveredAt: new Date().toISOString(),
        readAt: state === 'read' ? new Date().toISOString() : null,
      });
    act(() => receipt('delivered', 2));
    expect(await within(log).findByText('Delivered to the hospital')).toBeInTheDocument();
    act(() => receipt('read', 3));
    expect(await within(log).findByText('Read')).toBeInTheDocument();
  });

  it('a refused message stays with its reason, Retry and Discard', async () => {
    server({
      [`POST ${CHAT_PATH}`]: { status: 400, body: { message: 'This case is closed; it can no longer be changed.' } },
    });
    await caseOutbox.start();
    const { user } = await openChat();
    await user.type(screen.getByRole('textbox', { name: 'Write a message' }), 'Hello{Enter}');
    const log = await screen.findByRole('log', { name: 'Chat messages' });
    expect(await within(log).findByText('This case is closed; it can no longer be changed.')).toBeInTheDocument();
    expect(within(log).getByText('Not sent')).toBeInTheDocument();
    await user.click(within(log).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(within(log).queryByText('Hello')).not.toBeInTheDocument());
    expect(await caseOutbox.pendingCount()).toBe(0);
  });

  it('the mic shows only when a voice-memo recorder is registered, and only while the input is empty', async () => {
    server();
    const { user } = await openChat();
    // The case screen registers the media feature's recorder; a registration in its place is what opens.
    const open = vi.fn();
    let unregister: () => void = () => undefined;
    act(() => {
      unregister = registerVoiceMemoRecorder(open);
    });
    await user.click(screen.getByRole('button', { name: 'Record a voice memo' }));
    expect(open).toHaveBeenCalledOnce();
    await user.type(screen.getByRole('textbox', { name: 'Write a message' }), 'x');
    expect(screen.queryByRole('button', { name: 'Record a voice memo' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    act(() => unregister());
    await user.clear(screen.getByRole('textbox', { name: 'Write a message' }));
    expect(screen.queryByRole('button', { name: 'Record a voice memo' })).not.toBeInTheDocument();
  });

  it("the mic opens the case screen's voice memo recorder (here: a browser that cannot record)", async () => {
    server();
    const { user } = await openChat();
    await user.click(screen.getByRole('button', { name: 'Record a voice memo' }));
    const recorder = await screen.findByRole('dialog', { name: 'Voice Memo' });
    expect(await within(recorder).findByRole('alert')).toHaveTextContent(
      'getUserMedia is not implemented in this browser',
    );
    expect(within(recorder).getByRole('button', { name: 'Stop and send' })).toBeDisabled();
    await user.click(within(recorder).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Voice Memo' })).not.toBeInTheDocument();
  });

  it('a VOICE_MEMO message shows its length and plays through a signed link', async () => {
    const api = server({
      [`GET ${CHAT_PATH}`]: {
        body: { messages: [chatMessage({ _id: 'm-9', type: 'VOICE_MEMO', content: '', mediaId: 'up-1', length: 7 })] },
      },
      'GET /media/twiage-cases/case-1/uploads/up-1/access': {
        body: {
          url: '/media/twiage-cases/case-1/uploads/up-1/voicememo.mp3?access=1.x',
          expiresAt: new Date().toISOString(),
        },
      },
    });
    const { user } = await openChat();
    const log = await screen.findByRole('log', { name: 'Chat messages' });
    await user.click(await within(log).findByRole('button', { name: 'Play voice memo 0:07' }));
    const audio = await within(log).findByLabelText('Voice memo 0:07');
    expect(audio.tagName).toBe('AUDIO');
    expect(audio).toHaveAttribute('src', '/media/twiage-cases/case-1/uploads/up-1/voicememo.mp3?access=1.x');
    expect(api.calls('GET /media/twiage-cases/case-1/uploads/up-1/access')).toHaveLength(1);
  });
});
