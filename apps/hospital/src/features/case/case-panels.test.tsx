import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ChatMessage, InboundCaseFeedback, MediaUpload, RealtimeEvent } from '@inbound/contract';
import { ApiError } from '../../lib/api';
import { ChatPanel, CHAT_RETRY_MS } from './ChatPanel';
import { FeedbackPanel } from './FeedbackPanel';
import { formatLength, MediaPanel } from './MediaPanel';
import { MediaViewer } from './MediaViewer';
import { useCaseChannel } from './queries';
import { FIT, MAX_SCALE, panBy, wheelScale, zoomAt } from './zoom';

type Handlers = { onEvent: (event: RealtimeEvent) => void; onSubscribed?: () => void };
const channels = new Map<string, Handlers>();
const api = vi.fn<(name: string, options?: Record<string, unknown>) => Promise<unknown>>();

vi.mock('../../lib/client', () => ({ api: (name: string, options?: Record<string, unknown>) => api(name, options) }));
vi.mock('../../lib/realtime/realtime', () => ({
  useChannel: (channel: string | null, handlers: Handlers) => {
    if (channel) channels.set(channel, handlers);
  },
}));

const H = 'hospital-1';
const C = 'case-1';

function upload(id: string, type: MediaUpload['type'], overrides: Partial<MediaUpload> = {}): MediaUpload {
  return {
    id,
    type,
    status: 'ready',
    fileName: `${type}.x`,
    contentType: 'x',
    size: 1000,
    durationMs: null,
    createdAt: '2026-11-22T12:02:00.000Z',
    url: `/media/twiage-cases/${C}/uploads/${id}/${type}`,
    ...overrides,
  };
}

const counts = { photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0 };

function message(id: string, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    _id: id,
    caseId: C,
    timestamp: '2026-11-22T12:00:00.000Z',
    clientCreatedAt: '2026-11-22T12:00:00.000Z',
    createdAt: '2026-11-22T12:00:00.000Z',
    content: `text ${id}`,
    source: 'web_ems',
    senderId: 'user-medic1',
    senderName: 'Jordan Reyes',
    senderOrganization: 'Riverside EMS',
    type: 'CHAT',
    mediaId: null,
    length: null,
    state: 'sent',
    deliveredAt: null,
    readAt: null,
    ...overrides,
  };
}

function Live({ children }: { children: ReactNode }) {
  useCaseChannel(H, C);
  return <>{children}</>;
}

function renderWith(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Live>{ui}</Live>
    </QueryClientProvider>,
  );
}

const emit = (event: RealtimeEvent) => act(() => channels.get(`case:${C}`)?.onEvent(event));

beforeEach(() => {
  api.mockReset();
  channels.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('zoom geometry', () => {
  it('keeps the picture point under the cursor while zooming, and centres again at 1×', () => {
    const zoomed = zoomAt(FIT, 2, { x: 100, y: 50 });
    expect(zoomed).toEqual({ scale: 2, x: -100, y: -50 });
    // The point under the cursor (100, 50) was picture point (100, 50)/1; at 2× it is still there.
    expect(zoomed.x + 2 * 100).toBe(100);
    expect(zoomAt(zoomed, 0.5, { x: 10, y: 10 })).toEqual(FIT);
    expect(zoomAt(FIT, 100).scale).toBe(MAX_SCALE);
    expect(panBy(FIT, 30, 30)).toEqual(FIT);
    expect(panBy(zoomed, 30, -10)).toEqual({ scale: 2, x: -70, y: -60 });
    expect(wheelScale(2, -300)).toBeGreaterThan(2);
    expect(wheelScale(2, 300)).toBeLessThan(2);
  });
});

describe('MediaViewer', () => {
  it('zooms with the buttons, keys and wheel, pans with arrows, closes on Esc and gives focus back', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const { unmount } = render(<MediaViewer src="/x.jpeg" title="EKG, 12:02" onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'EKG, 12:02' });
    expect(document.activeElement?.textContent).toContain('Close');
    const scale = () => screen.getByTestId('viewer-scale').textContent;
    const image = () => screen.getByTestId('viewer-image').style.transform;
    expect(scale()).toBe('100%');
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(scale()).toBe('150%');
    fireEvent.keyDown(dialog, { key: '+' });
    expect(scale()).toBe('225%');
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(image()).toContain('translate(-80px, 0px)');
    fireEvent.keyDown(dialog, { key: '0' });
    expect(scale()).toBe('100%');
    fireEvent.wheel(screen.getByTestId('viewer-image').parentElement as HTMLElement, { deltaY: -300 });
    expect(Number.parseInt(scale() ?? '', 10)).toBeGreaterThan(250);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it('keeps focus in the dialog when the focused zoom button reaches its limit, so Esc still closes', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<MediaViewer src="/x.jpeg" title="EKG, 12:02" onClose={onClose} />);
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
    while (!(zoomIn as HTMLButtonElement).disabled) await user.click(zoomIn);
    expect(screen.getByTestId('viewer-scale').textContent).toBe(`${MAX_SCALE * 100}%`);
    expect(document.activeElement).toBe(screen.getByRole('dialog').querySelector('.viewer-stage'));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('MediaPanel', () => {
  it('shows each upload with its type and time; a converting video turns into a player when the server says so', async () => {
    let videoReady = false;
    api.mockImplementation(async (name, options) => {
      if (name === 'inboundCaseMedia') {
        return {
          uploads: [
            upload('u-ekg', 'ekg'),
            upload('u-video', 'video', { status: videoReady ? 'ready' : 'processing', durationMs: 5_000 }),
            upload('u-voice', 'voicememo', { durationMs: 83_000 }),
          ],
          mediaCounts: { ...counts, ekg: 1, video: 1, voicememo: 1 },
        };
      }
      if (name === 'mediaAccess') {
        const { uploadId } = options?.params as { uploadId: string };
        return { url: `/signed/${uploadId}?access=1.sig`, expiresAt: '2026-11-22T13:00:00.000Z' };
      }
      throw new Error(`unexpected ${name}`);
    });
    const { container } = renderWith(<MediaPanel hospitalId={H} caseId={C} />);
    expect(await screen.findByText('Converting…')).toBeTruthy();
    expect(screen.getByText('EKG')).toBeTruthy();
    expect(screen.getByText('Voice memo')).toBeTruthy();
    expect(screen.getByText('1:23')).toBeTruthy();
    const audio = await waitFor(() => {
      const found = container.querySelector('audio');
      if (!found) throw new Error('no audio yet');
      return found;
    });
    expect(audio.getAttribute('src')).toBe('/signed/u-voice?access=1.sig');
    expect(audio.hasAttribute('controls')).toBe(true);
    // No link is asked for a file still converting.
    expect(api.mock.calls.some(([n, o]) => n === 'mediaAccess' && JSON.stringify(o).includes('u-video'))).toBe(false);

    videoReady = true;
    const converted = {
      id: 'u-video',
      type: 'video',
      status: 'ready',
      fileName: 'video.mp4',
      contentType: 'video/mp4',
      size: 1000,
      durationMs: 4000,
      createdAt: '2026-11-21T12:00:00.000Z',
      url: '/media/u-video',
    };
    emit({ type: 'media.converted', data: { caseId: C, upload: converted } });
    const video = await waitFor(() => {
      const found = container.querySelector('video');
      if (!found) throw new Error('no video yet');
      return found;
    });
    expect(video.getAttribute('src')).toBe('/signed/u-video?access=1.sig');
    expect(screen.queryByText('Converting…')).toBeNull();

    // The EKG thumbnail opens the full-screen viewer with the same signed link.
    await userEvent.click(await screen.findByRole('button', { name: /Open EKG from/ }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe('/signed/u-ekg?access=1.sig');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says so when there is nothing yet', async () => {
    api.mockResolvedValue({ uploads: [], mediaCounts: counts });
    renderWith(<MediaPanel hospitalId={H} caseId={C} />);
    expect(await screen.findByText('No photos, EKGs, videos or voice memos yet.')).toBeTruthy();
  });

  it('formats lengths as m:ss', () => {
    expect(formatLength(83_000)).toBe('1:23');
    expect(formatLength(4_600)).toBe('0:05');
    expect(formatLength(null)).toBeNull();
  });
});

describe('ChatPanel', () => {
  const stored = (id: string, content: string, state: ChatMessage['state'] = 'sent') =>
    message(id, {
      content,
      source: 'web_hospital',
      senderName: 'Dana Ortiz',
      senderOrganization: 'Riverside Regional',
      createdAt: '2026-11-22T12:05:00.000Z',
      state,
    });

  it('lists both sides with sender, organisation and time, plays voice memos, and marks crew messages read', async () => {
    api.mockImplementation(async (name) => {
      if (name === 'inboundCaseChat') {
        return {
          messages: [
            message('m1', { content: 'BP 180/100, left-sided weakness' }),
            message('m2', { type: 'VOICE_MEMO', content: '', mediaId: 'u-memo', length: 12 }),
            stored('m3', 'Stroke team ready in bay 3', 'delivered'),
          ],
        };
      }
      if (name === 'mediaAccess') return { url: '/signed/memo', expiresAt: '2026-11-22T13:00:00.000Z' };
      if (name === 'chatMessageRead') return message('x');
      throw new Error(`unexpected ${name}`);
    });
    const { container } = renderWith(
      <ChatPanel hospitalId={H} caseId={C} hospitalName="Riverside Regional" closed={false} />,
    );
    const log = await screen.findByRole('log', { name: 'Chat messages' });
    await within(log).findByText('BP 180/100, left-sided weakness');
    expect(within(log).getAllByText('Jordan Reyes')).toHaveLength(2);
    expect(within(log).getAllByText(/Riverside EMS/).length).toBeGreaterThan(0);
    expect(within(log).getByText('Voice memo · 0:12')).toBeTruthy();
    await waitFor(() => expect(container.querySelector('audio')?.getAttribute('src')).toBe('/signed/memo'));
    expect(within(log).getByText(/Delivered to the crew/)).toBeTruthy();
    await waitFor(() => {
      const reads = api.mock.calls.filter(([n]) => n === 'chatMessageRead').map(([, o]) => o?.params);
      expect(reads).toEqual([
        { id: C, messageId: 'm1' },
        { id: C, messageId: 'm2' },
      ]);
    });

    // A crew message arriving live shows at once and is marked read too.
    emit({
      type: 'chat.message',
      data: message('m4', { content: 'ETA 6 minutes', createdAt: '2026-11-22T12:06:00.000Z' }),
    });
    expect(await within(log).findByText('ETA 6 minutes')).toBeTruthy();
    await waitFor(() =>
      expect(api.mock.calls.some(([n, o]) => n === 'chatMessageRead' && JSON.stringify(o).includes('m4'))).toBe(true),
    );
    // And a receipt moves the state of ours.
    emit({
      type: 'chat.receipt',
      data: { messageId: 'm3', caseId: C, state: 'read', deliveredAt: null, readAt: '2026-11-22T12:07:00.000Z' },
    });
    expect(await within(log).findByText(/Read by the crew/)).toBeTruthy();
    expect(within(log).queryByText(/Delivered to the crew/)).toBeNull();
  });

  it('marks nothing read while the console tab is hidden, and reads when it is shown again', async () => {
    let state: DocumentVisibilityState = 'hidden';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state);
    api.mockImplementation(async (name) => {
      if (name === 'inboundCaseChat') return { messages: [message('m1', { content: 'Pulse 48' })] };
      if (name === 'chatMessageRead') return message('m1');
      throw new Error(`unexpected ${name}`);
    });
    renderWith(<ChatPanel hospitalId={H} caseId={C} hospitalName="Riverside Regional" closed={false} />);
    expect(await screen.findByText('Pulse 48')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.mock.calls.some(([n]) => n === 'chatMessageRead')).toBe(false);
    state = 'visible';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(api.mock.calls.filter(([n]) => n === 'chatMessageRead')).toHaveLength(1));
  });

  it('sends on Enter with one Idempotency-Key, retries by itself with the same key when there was no answer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const keys: string[] = [];
    let attempts = 0;
    api.mockImplementation(async (name, options) => {
      if (name === 'inboundCaseChat') return { messages: [] };
      if (name === 'postChatMessage') {
        keys.push(String(options?.idempotencyKey));
        attempts += 1;
        if (attempts === 1) throw new ApiError('No response from the server.', null);
        return stored('s1', (options?.body as { message: string }).message);
      }
      throw new Error(`unexpected ${name}`);
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWith(<ChatPanel hospitalId={H} caseId={C} hospitalName="Riverside Regional" closed={false} />);
    const input = await screen.findByLabelText('Message to the crew');
    await user.type(input, '  Bay 3 is ready  {Enter}');
    expect((input as HTMLTextAreaElement).value).toBe('');
    expect(await screen.findByText('No connection — trying again…')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(CHAT_RETRY_MS + 10));
    const log = screen.getByRole('log');
    await waitFor(() => expect(within(log).getByText('Bay 3 is ready')).toBeTruthy());
    expect(within(log).getByText(/Sent/)).toBeTruthy();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    const body = api.mock.calls.find(([n]) => n === 'postChatMessage')?.[1]?.body;
    expect(body).toMatchObject({
      message: 'Bay 3 is ready',
      source: 'web_hospital',
      senderOrganization: 'Riverside Regional',
      type: 'CHAT',
    });
  });

  it('shows our message once when the live channel brings it before the POST answers', async () => {
    let answer: (value: ChatMessage) => void = () => undefined;
    api.mockImplementation(async (name) => {
      if (name === 'inboundCaseChat') return { messages: [] };
      if (name === 'postChatMessage') return new Promise<ChatMessage>((resolve) => (answer = resolve));
      throw new Error(`unexpected ${name}`);
    });
    renderWith(<ChatPanel hospitalId={H} caseId={C} hospitalName="Riverside Regional" closed={false} />);
    const input = await screen.findByLabelText('Message to the crew');
    await userEvent.type(input, 'CT 2 is clear{Enter}');
    const log = screen.getByRole('log');
    expect(await within(log).findByText('Sending…')).toBeTruthy();
    const body = api.mock.calls.find(([n]) => n === 'postChatMessage')?.[1]?.body as { clientCreatedAt: string };
    const echoed = { ...stored('s1', 'CT 2 is clear'), clientCreatedAt: body.clientCreatedAt };
    emit({ type: 'chat.message', data: echoed });
    await waitFor(() => expect(within(log).getAllByText('CT 2 is clear')).toHaveLength(1));
    expect(within(log).queryByText('Sending…')).toBeNull();
    act(() => answer(echoed));
    await waitFor(() => expect(within(log).getByText(/Sent/)).toBeTruthy());
    expect(within(log).getAllByText('CT 2 is clear')).toHaveLength(1);
  });

  it('shows a refusal with Retry and Discard; Shift+Enter does not send; a closed case has no composer', async () => {
    api.mockImplementation(async (name) => {
      if (name === 'inboundCaseChat') return { messages: [] };
      if (name === 'postChatMessage') throw new ApiError('The case is closed: the patient has arrived.', 409);
      throw new Error(`unexpected ${name}`);
    });
    const user = userEvent.setup();
    const { unmount } = renderWith(
      <ChatPanel hospitalId={H} caseId={C} hospitalName="Riverside Regional" closed={false} />,
    );
    const input = await screen.findByLabelText('Message to the crew');
    await user.type(input, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(api.mock.calls.some(([n]) => n === 'postChatMessage')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Not sent: The case is closed: the patient has arrived.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.mock.calls.filter(([n]) => n === 'postChatMessage')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByText(/line one/)).toBeNull();
    unmount();

    renderWith(<ChatPanel hospitalId={H} caseId={C} hospitalName="Riverside Regional" closed />);
    expect(await screen.findByText('The patient has arrived; the chat is closed.')).toBeTruthy();
    expect(screen.queryByLabelText('Message to the crew')).toBeNull();
  });
});

describe('FeedbackPanel', () => {
  it('lists stars out of 5, the note, who and when; and re-reads when the crew sends more', async () => {
    const first: InboundCaseFeedback = {
      id: 'f1',
      rating: 4,
      notes: 'Bay was ready, quick hand-over.',
      byName: 'Jordan Reyes',
      agencyName: 'Riverside EMS',
      createdAt: '2026-11-22T12:30:00.000Z',
    };
    let list = [first];
    api.mockImplementation(async () => ({ feedback: list }));
    renderWith(<FeedbackPanel hospitalId={H} caseId={C} />);
    expect(await screen.findByRole('img', { name: '4 out of 5 stars' })).toBeTruthy();
    expect(screen.getByText('Bay was ready, quick hand-over.')).toBeTruthy();
    expect(screen.getByText(/Jordan Reyes · Riverside EMS/)).toBeTruthy();

    list = [first, { ...first, id: 'f2', rating: 2, notes: '' }];
    emit({
      type: 'case.updated',
      data: {
        caseId: C,
        event: {
          id: 'f2',
          caseId: C,
          seq: 9,
          createdAt: first.createdAt,
          clientCreatedAt: null,
          actorUserId: 'u1',
          type: 'caseFeedback',
          payload: { rating: 2, notes: '', type: 'ems' },
        },
      },
    });
    expect(await screen.findByRole('img', { name: '2 out of 5 stars' })).toBeTruthy();
    expect(screen.getByText('No note.')).toBeTruthy();
  });

  it('says when there is none yet', async () => {
    api.mockResolvedValue({ feedback: [] });
    renderWith(<FeedbackPanel hospitalId={H} caseId={C} />);
    expect(await screen.findByText('The crew has not rated this hand-over yet.')).toBeTruthy();
  });
});
