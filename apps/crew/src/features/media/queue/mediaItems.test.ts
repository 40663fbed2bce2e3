// What the crew sees per media file, driven by the real outbox (fake-indexeddb) and a fake server:
// queued → sending with progress → sent; a refusal is failed with the server's message; after a reload
// what still waits is listed again; a placeholder case's items follow it to the real id.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseMutations, createOutbox, type Outbox, type OutboxRequest } from '../../../lib/outbox';
import { createFakeServer, createManualTime } from '../../../lib/outbox/outbox.testkit';
import { createMediaItemStore, type MediaItemStore } from './mediaItems';

const PLACEHOLDER = 'placeholder-1763766000000';
let databases = 0;
const running: Outbox[] = [];
const stores: MediaItemStore[] = [];

afterEach(async () => {
  stores.splice(0).forEach((store) => store.close());
  await Promise.all(running.splice(0).map((outbox) => outbox.stop()));
});

function setup() {
  databases += 1;
  const dbName = `media-items-${databases}`;
  const server = createFakeServer();
  const time = createManualTime();
  /** Reports half the file, then lets the fake server answer (after `gate`, when set). */
  let gate: Promise<void> | null = null;
  const transport = async (request: OutboxRequest) => {
    const total = request.multipart?.file.blob.size ?? 0;
    request.onProgress?.(Math.round(total / 2), total);
    if (gate) await gate;
    request.onProgress?.(total, total);
    return server.transport(request);
  };
  const open = () => {
    const outbox = createOutbox({
      transport,
      dbName,
      clock: time.clock,
      timers: time.timers,
      random: () => 0.5,
      events: new EventTarget(),
      isBrowserOnline: () => true,
      isVisible: () => true,
      locks: null,
      broadcastChannel: null,
    });
    running.push(outbox);
    const store = createMediaItemStore(outbox);
    stores.push(store);
    return { outbox, store };
  };
  return {
    server,
    open,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
  };
}

async function settle(outbox: Outbox) {
  for (let round = 0; round < 4; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await outbox.whenIdle();
  }
}

const jpeg = (size: number) => new Blob([new Uint8Array(size)], { type: 'image/jpeg' });

describe('media items', () => {
  it('goes queued → sending with progress → sent, and stays listed once sent', async () => {
    const { open, hold } = setup();
    const { outbox, store } = open();
    const release = hold();
    await outbox.start();
    const info = await outbox.enqueue(caseMutations.media('case-1', 'ekg', jpeg(4_000)));
    const added = store.add(info);
    expect(added).toMatchObject({ key: info.key, caseId: 'case-1', eventType: 'ekg', size: 4_000 });
    // The upload is under way, half sent, until the server answers.
    await vi.waitFor(
      () => expect(store.items()).toEqual([expect.objectContaining({ status: 'sending', progress: 0.5, error: null })]),
      { timeout: 5_000 },
    );
    release();
    await settle(outbox);
    expect(store.items()).toEqual([
      expect.objectContaining({ key: info.key, status: 'sent', progress: 1, error: null, eventType: 'ekg' }),
    ]);
  });

  it("marks a refused file failed with the server's message; a retry by the server error is queued with a reason", async () => {
    const { open, server } = setup();
    server.reply = (request, attempt) =>
      request.multipart?.fields.type === 'video'
        ? { status: 415, body: { message: 'This file is not a supported video.' } }
        : attempt === 1
          ? { status: 503, body: { message: 'busy' } }
          : undefined;
    const { outbox, store } = open();
    await outbox.start();
    await outbox.enqueue(caseMutations.media('case-1', 'video', new Blob([new Uint8Array(10)], { type: 'video/mp4' })));
    await outbox.enqueue(caseMutations.media('case-2', 'photo', jpeg(10)));
    await settle(outbox);
    const byType = Object.fromEntries(store.items().map((item) => [item.eventType, item]));
    expect(byType.video).toMatchObject({ status: 'failed', error: 'This file is not a supported video.' });
    expect(byType.photo).toMatchObject({ status: 'queued', error: 'Not sent yet (HTTP 503); trying again.' });
  });

  it('lists what still waits after a reload, and follows a placeholder case to its real id', async () => {
    const { open, server } = setup();
    server.offline = true;
    const first = open();
    await first.outbox.start();
    await first.outbox.enqueue(
      caseMutations.createCase(PLACEHOLDER, { emsAgency: 'a-1', truck: 't-1', beganAt: '2026-11-21T23:00:00.000Z' }),
    );
    const info = await first.outbox.enqueue(
      caseMutations.media(PLACEHOLDER, 'voicememo', new Blob([new Uint8Array(7)], { type: 'audio/webm' }), {
        chatLength: 3,
      }),
    );
    await settle(first.outbox);
    await first.outbox.stop();

    const second = open();
    await second.store.load();
    expect(second.store.items()).toEqual([
      {
        key: info.key,
        caseId: PLACEHOLDER,
        eventType: 'voicememo',
        size: 7,
        createdAt: info.createdAt,
        status: 'queued',
        progress: 0,
        error: null,
      },
    ]);
    server.offline = false;
    await second.outbox.start();
    await settle(second.outbox);
    expect(second.store.items()).toEqual([
      expect.objectContaining({ key: info.key, caseId: 'case-1', status: 'sent', progress: 1 }),
    ]);
  });
});
