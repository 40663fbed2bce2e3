// Large media over tus, through the real outbox (fake-indexeddb) and tus-js-client, against an
// in-memory tus server behind tus-js-client's HTTP layer: a cut mid-upload, then a reload, resumes
// from the server's offset with the same Idempotency-Key; refusals and small files behave as before.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseMutations } from './caseMutations';
import { createOutbox, type Outbox } from './outbox';
import { createFakeServer, createManualTime } from './outbox.testkit';
import { createTusTransport, tusFingerprint } from './tusTransport';
import type { OutboxEvent } from './types';
import type { HttpRequest, HttpResponse, HttpStack, UrlStorage } from 'tus-js-client';

const ENDPOINT_PATH = '/media/uploads';

interface TusUpload {
  length: number;
  bytes: number[];
  metadata: Record<string, string>;
  headers: Record<string, string>;
}

interface SeenTus {
  method: string;
  path: string;
  offset: number | null;
  bytes: number;
}

/** A tus 1.0 server in memory, speaking through tus-js-client's HttpStack interface. */
function createFakeTus() {
  const uploads = new Map<string, TusUpload>();
  const seen: SeenTus[] = [];
  const server = {
    uploads,
    seen,
    /** The next PATCH takes this many bytes, then the connection breaks. */
    cutAfter: null as number | null,
    /** Every request fails as offline. */
    offline: false,
    /** The answer to the next HEAD (e.g. a 401), instead of the offset. */
    refuseHead: null as number | null,
    /** The answer to creation (e.g. a 413). */
    refuseCreation: null as { status: number; body: string } | null,
    completions: 0,
    stack: null as unknown as HttpStack,
  };
  let ids = 0;

  const response = (status: number, headers: Record<string, string> = {}, body = ''): HttpResponse => ({
    getStatus: () => status,
    getHeader: (name) => headers[name.toLowerCase()],
    getBody: () => body,
    getUnderlyingObject: () => null,
  });

  server.stack = {
    getName: () => 'fake-tus',
    createRequest(method: string, url: string): HttpRequest {
      const headers: Record<string, string> = {};
      let onProgress: (sent: number) => void = () => undefined;
      let aborted = false;
      return {
        getMethod: () => method,
        getURL: () => url,
        setHeader: (name, value) => {
          headers[name.toLowerCase()] = value;
        },
        getHeader: (name) => headers[name.toLowerCase()],
        setProgressHandler: (handler) => {
          onProgress = handler;
        },
        abort: () => {
          aborted = true;
          return Promise.resolve();
        },
        getUnderlyingObject: () => null,
        async send(body: unknown): Promise<HttpResponse> {
          const path = new URL(url).pathname;
          const chunk = body instanceof Blob ? [...new Uint8Array(await body.arrayBuffer())] : [];
          const offsetHeader = headers['upload-offset'];
          seen.push({
            method,
            path,
            offset: offsetHeader === undefined ? null : Number(offsetHeader),
            bytes: chunk.length,
          });
          if (server.offline || aborted) throw new Error('network down');
          if (method === 'POST' && path === ENDPOINT_PATH) {
            if (server.refuseCreation) return response(server.refuseCreation.status, {}, server.refuseCreation.body);
            ids += 1;
            const id = `u${ids}`;
            const metadata = Object.fromEntries(
              (headers['upload-metadata'] ?? '').split(',').map((pair) => {
                const [key, value = ''] = pair.split(' ');
                return [key, atob(value)];
              }),
            );
            uploads.set(id, { length: Number(headers['upload-length']), bytes: [], metadata, headers: { ...headers } });
            return response(201, { location: `${ENDPOINT_PATH}/${id}` });
          }
          const upload = uploads.get(path.slice(ENDPOINT_PATH.length + 1));
          if (!upload) return response(404);
          if (method === 'HEAD' && server.refuseHead !== null) {
            const status = server.refuseHead;
            server.refuseHead = null;
            return response(status, {}, JSON.stringify({ message: 'Sign in again.' }));
          }
          if (method === 'HEAD') {
            return response(200, {
              'upload-offset': String(upload.bytes.length),
              'upload-length': String(upload.length),
            });
          }
          if (method === 'PATCH') {
            if (Number(offsetHeader) !== upload.bytes.length) return response(409, {}, 'offset mismatch');
            if (server.cutAfter !== null) {
              const taken = chunk.slice(0, server.cutAfter);
              server.cutAfter = null;
              upload.bytes.push(...taken);
              onProgress(taken.length);
              throw new Error('connection reset');
            }
            upload.bytes.push(...chunk);
            onProgress(chunk.length);
            if (upload.bytes.length < upload.length) {
              return response(204, { 'upload-offset': String(upload.bytes.length) });
            }
            server.completions += 1;
            return response(
              200,
              { 'upload-offset': String(upload.bytes.length) },
              JSON.stringify({ upload: { id: path.slice(ENDPOINT_PATH.length + 1) } }),
            );
          }
          return response(405);
        },
      };
    },
  };
  return server;
}

/** tus-js-client's URL storage, in memory (the app uses localStorage): survives a "reload" of the page. */
function createMemoryUrlStorage(): UrlStorage & { entries: Map<string, unknown> } {
  const entries = new Map<string, { fingerprint: string; upload: Parameters<UrlStorage['addUpload']>[1] }>();
  let n = 0;
  return {
    entries,
    findAllUploads: () => Promise.resolve([...entries.values()].map((entry) => entry.upload)),
    findUploadsByFingerprint: (fingerprint) =>
      Promise.resolve(
        [...entries.entries()]
          .filter(([, entry]) => entry.fingerprint === fingerprint)
          .map(([key, entry]) => ({ ...entry.upload, urlStorageKey: key })),
      ),
    removeUpload: (key) => {
      entries.delete(key);
      return Promise.resolve();
    },
    addUpload: (fingerprint, upload) => {
      n += 1;
      const key = `tus::${fingerprint}::${n}`;
      entries.set(key, { fingerprint, upload });
      return Promise.resolve(key);
    },
  };
}

/** Reads the Blob in slices (what the browser build does), whichever build of tus-js-client loads here. */
const blobReader = {
  openFile: (input: Blob) =>
    Promise.resolve({
      size: input.size,
      slice: (start: number, end: number) =>
        Promise.resolve({ value: input.slice(start, end), done: end >= input.size }),
      close: () => undefined,
    }),
};

let databases = 0;
const running: Outbox[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((outbox) => outbox.stop()));
});

function setup() {
  databases += 1;
  const dbName = `tus-test-${databases}`;
  const tus = createFakeTus();
  const multipart = createFakeServer();
  const urlStorage = createMemoryUrlStorage();
  const time = createManualTime();
  const seen: OutboxEvent[] = [];
  const open = () => {
    const outbox = createOutbox({
      transport: createTusTransport({
        getToken: () => 'token-1',
        fallback: multipart.transport,
        baseUrl: 'http://inbound.test',
        resumableAboveBytes: 1_000,
        chunkSize: 4_000,
        httpStack: tus.stack,
        urlStorage,
        fileReader: blobReader,
      }),
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
    outbox.subscribe((event) => seen.push(event));
    running.push(outbox);
    return outbox;
  };
  return { tus, multipart, urlStorage, time, seen, open };
}

/** Lets the outbox and tus-js-client run to rest; generous, because blob reads take extra ticks under load. */
async function settle(outbox: Outbox) {
  for (let round = 0; round < 20; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await outbox.whenIdle();
  }
}

const video = (size: number) => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 7 + 3) % 251;
  return { bytes, blob: new Blob([bytes], { type: 'video/mp4' }) };
};

describe('tus transport in the outbox', () => {
  it('resumes a cut upload after a reload from the server offset, with the same key, and records it once', async () => {
    const { tus, multipart, urlStorage, seen, open } = setup();
    const { bytes, blob } = video(10_000);
    tus.cutAfter = 2_500; // the first PATCH breaks after 2 500 bytes
    const page1 = open();
    await page1.start();
    const info = await page1.enqueue(caseMutations.media('case-1', 'video', blob));
    await settle(page1);

    // The attempt failed: kept, retried in 2 s; the server holds 2 500 bytes; the URL is remembered.
    expect(await page1.listPending()).toHaveLength(1);
    const retry = seen.find((e) => e.type === 'retrying');
    expect(retry?.type === 'retrying' && retry.mutation.nextAttemptAt - retry.mutation.createdAt).toBe(2_000);
    const [upload] = [...tus.uploads.values()];
    expect(upload?.bytes).toHaveLength(2_500);
    expect(upload?.metadata).toEqual({ type: 'video', caseId: 'case-1', idempotencyKey: info.key });
    expect(upload?.headers.authorization).toBe('JWT token-1');
    expect(upload?.headers['idempotency-key']).toBe(info.key);
    expect(await urlStorage.findUploadsByFingerprint(tusFingerprint(info.key))).toHaveLength(1);

    // Reload: the page is gone, a new one starts on the same device.
    await page1.stop();
    const page2 = open();
    await page2.start();
    await settle(page2);

    expect(await page2.listPending()).toHaveLength(0);
    expect(tus.uploads.size).toBe(1); // no second upload created
    expect(tus.completions).toBe(1);
    expect(upload?.bytes).toEqual([...bytes]);
    const patches = tus.seen.filter((r) => r.method === 'PATCH').map((r) => r.offset);
    expect(patches).toEqual([0, 2_500, 6_500]);
    expect(tus.seen.map((r) => r.method)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH', 'PATCH']);
    expect(multipart.requests).toHaveLength(0);
    const sent = seen.find((e) => e.type === 'sent');
    expect(sent?.type === 'sent' && sent.response).toEqual({ upload: { id: 'u1' } });
    expect(urlStorage.entries.size).toBe(0); // forgotten once delivered

    // Progress: from 0, then from the resumed offset up to the whole file, never down within an attempt.
    const progress = seen.flatMap((e) => (e.type === 'progress' ? [[e.loaded, e.total]] : []));
    expect(progress[0]).toEqual([0, 10_000]);
    expect(progress.at(-1)).toEqual([10_000, 10_000]);
    const secondAttempt = progress.slice(progress.findIndex(([loaded], i) => i > 0 && loaded === 0));
    expect(secondAttempt.map(([loaded]) => loaded)).toEqual([0, 2_500, 6_500, 10_000]);
    expect(progress.map(([loaded]) => loaded)).toEqual([0, 2_500, 0, 2_500, 6_500, 10_000]);
  });

  it('a server that lost the upload (404 on HEAD) gets a new one with the same key', async () => {
    const { tus, open } = setup();
    const { bytes, blob } = video(3_000);
    tus.cutAfter = 1_000;
    const outbox = open();
    await outbox.start();
    const info = await outbox.enqueue(caseMutations.media('case-1', 'video', blob));
    await settle(outbox);
    tus.uploads.clear(); // expired on the server
    await outbox.flush();
    await settle(outbox);
    expect(await outbox.listPending()).toHaveLength(0);
    const [fresh] = [...tus.uploads.values()];
    expect(fresh?.metadata.idempotencyKey).toBe(info.key);
    expect(fresh?.bytes).toEqual([...bytes]);
  });

  it('keeps retrying every 2 s while offline, and sends nothing twice', async () => {
    const { tus, time, seen, open } = setup();
    tus.offline = true;
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(caseMutations.media('case-1', 'video', video(5_000).blob));
    await settle(outbox);
    for (let i = 0; i < 3; i += 1) {
      time.advance(2_000);
      await settle(outbox);
    }
    const retries = seen.flatMap((e) => (e.type === 'retrying' ? [e.mutation.nextAttemptAt] : []));
    expect(retries).toHaveLength(4);
    expect(retries.slice(1).map((at, i) => at - retries[i]!)).toEqual([2_000, 2_000, 2_000]);
    tus.offline = false;
    time.advance(2_000);
    await settle(outbox);
    expect(await outbox.listPending()).toHaveLength(0);
    expect(tus.uploads.size).toBe(1);
  });

  it('holds on a 401 while resuming, keeps the upload, and resumes it after the crew signs in again', async () => {
    const { tus, urlStorage, seen, open } = setup();
    const { bytes, blob } = video(6_000);
    tus.cutAfter = 2_000;
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(caseMutations.media('case-1', 'video', blob));
    await settle(outbox);
    tus.refuseHead = 401; // the token expired while the upload waited
    await outbox.flush();
    // tus-js-client answers the HEAD over a few more ticks than the outbox's own work; on a busy machine
    // more than `settle` waits for.
    await vi.waitFor(() => expect(outbox.snapshot().held).toBe(true));
    expect(seen.some((e) => e.type === 'held-unauthorized')).toBe(true);
    expect(urlStorage.entries.size).toBe(1); // not forgotten
    await outbox.resume();
    await settle(outbox);
    expect(await outbox.listPending()).toHaveLength(0);
    expect(tus.uploads.size).toBe(1); // the same upload, resumed
    expect(tus.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(tus.seen.filter((r) => r.method === 'PATCH').map((r) => r.offset)).toEqual([0, 2_000]);
    expect([...tus.uploads.values()][0]?.bytes).toEqual([...bytes]);
  });

  it("sets a refused upload aside with the server's message and forgets its URL", async () => {
    const { tus, urlStorage, open } = setup();
    tus.refuseCreation = {
      status: 413,
      body: JSON.stringify({ message: 'The video file is too large: at most 150 MB.' }),
    };
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(caseMutations.media('case-1', 'video', video(5_000).blob));
    await settle(outbox);
    const [rejected] = await outbox.listRejected();
    expect(rejected).toMatchObject({ status: 413, message: 'The video file is too large: at most 150 MB.' });
    expect(urlStorage.entries.size).toBe(0);
  });

  it('sends small media as multipart, with the chat length of a voice memo as a field', async () => {
    const { tus, multipart, open } = setup();
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(
      caseMutations.media('case-1', 'voicememo', new Blob([new Uint8Array(900)], { type: 'audio/webm' }), {
        chatLength: 4,
      }),
    );
    await settle(outbox);
    expect(tus.seen).toHaveLength(0);
    expect(multipart.applied[0]?.multipart?.fields).toEqual({ type: 'voicememo', chatLength: '4' });
  });

  it('sends the chat length of a large voice memo as tus metadata', async () => {
    const { tus, open } = setup();
    const outbox = open();
    await outbox.start();
    await outbox.enqueue(
      caseMutations.media('case-1', 'voicememo', new Blob([new Uint8Array(2_000)], { type: 'audio/webm' }), {
        chatLength: 95,
      }),
    );
    await settle(outbox);
    expect([...tus.uploads.values()][0]?.metadata).toMatchObject({ type: 'voicememo', chatLength: '95' });
  });
});
