/**
 * Media delivery over a slow uplink (issue 6 "Figures"):
 *
 * 1. **A 10 s video, tap Send → the hospital can play it.** Headless Chromium with the fake camera and
 *    microphone records 10 s with MediaRecorder (`video/mp4;codecs=avc1,opus`, as the crew app asks) in
 *    the crew app's page, on an open case. The link is then throttled with CDP
 *    `Network.emulateNetworkConditions` (1.5 Mbit/s up, 150 ms latency) and the file handed to the app's
 *    own `enqueueMedia` (the outbox: IndexedDB, then multipart over XHR, or tus above 4 MB). Timed from
 *    that call (the tap on Send) to the server listing the upload `ready` (converted to H.264 + AAC MP4),
 *    polled every 100 ms from Node (not through the throttled link). Target: ≤ 1.3 × the time the bytes
 *    alone need at 1.5 Mbit/s.
 * 2. **Photo bytes for a 12-lead picture.** The page renders a phone-sized (4032×3024) photo of a printed
 *    12-lead (ECG paper with 1 mm / 5 mm grid, 3 rows of leads and a rhythm strip at 25 mm/s, 10 mm/mV,
 *    uneven light, sensor noise; the same picture as scripts/measure-ekg-photo.mjs), encodes it as the
 *    camera would (JPEG 0.92), and runs the app's `preparePhoto` on it. Target ≤ 400 KB.
 *
 * The app's functions are reached through its test hook (`localStorage['inbound-test-hooks'] = 'on'` →
 * `window.__inboundMedia`, features/media/mediaQueue.ts). `BENCH_VIDEO_SECONDS` changes the length
 * (e.g. 30 s: a file above 4 MB, sent resumably over tus).
 */
/// <reference lib="dom" />
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';
import {
  authorizationHeader,
  buildPath,
  MediaListResponse,
  PHOTO_TARGET_BYTES,
  routes,
  SignInResponse,
} from '@inbound/contract';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { ensureAppsBuilt, openStrokeCase, PHONE, STEP_TIMEOUT_MS } from './lib/browser';
import { kb, verdict } from './lib/format';
import { freePort, startServer } from './lib/server';

export const UPLINK_BITS_PER_S = 1_500_000;
export const LATENCY_MS = 150;
export const SEND_TARGET_FACTOR = 1.3;
const VIDEO_SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 10);

export interface MediaSendFigures {
  video: {
    seconds: number;
    mimeType: string;
    bytes: number;
    /** The bytes alone at the uplink's rate. */
    wireMs: number;
    /** enqueueMedia called → the outbox has the server's 2xx (upload done). */
    uploadedMs: number;
    /** On the server: the upload recorded → its conversion done (case_media times). */
    convertMs: number;
    /** enqueueMedia called → the server lists it `ready` (converted). */
    readyMs: number;
    transport: 'multipart' | 'tus';
  };
  photo: { sourceBytes: number; bytes: number; width: number; height: number };
}

interface MediaHooks {
  enqueueMedia(input: { caseId: string; eventType: 'video'; blob: Blob }): Promise<{ key: string }>;
  preparePhoto(source: Blob): Promise<Blob>;
  items(): readonly { key: string; status: string }[];
  caseId(): string | null;
}
type HookWindow = Window & { __inboundMedia?: MediaHooks; __benchVideo?: Blob };

/**
 * A phone photo (4032×3024, JPEG 0.92) of a printed 12-lead, drawn in the page: the picture of
 * scripts/measure-ekg-photo.mjs (grid, 3 rows of leads and a rhythm strip, uneven light, ±5 levels of
 * noise). Plain JavaScript in a string, so no bundler helper ends up in the page.
 */
const RENDER_EKG_PHOTO = `window.__benchEkgPhoto = async function () {
  var W = 4032, H = 3024, pw = 280, ph = 216, ppm = (W * 0.92) / pw;
  var x0 = Math.round((W - pw * ppm) / 2), y0 = Math.round((H - ph * ppm) / 2);
  var canvas = new OffscreenCanvas(W, H), g = canvas.getContext('2d');
  g.fillStyle = 'rgb(120,115,110)'; g.fillRect(0, 0, W, H);
  g.fillStyle = 'rgb(252,246,240)'; g.fillRect(x0, y0, pw * ppm, ph * ppm);
  function grid(color, width, every) {
    g.strokeStyle = color; g.lineWidth = width * ppm; g.beginPath();
    for (var mx = 0; mx <= pw; mx += every) { g.moveTo(x0 + mx * ppm, y0); g.lineTo(x0 + mx * ppm, y0 + ph * ppm); }
    for (var my = 0; my <= ph; my += every) { g.moveTo(x0, y0 + my * ppm); g.lineTo(x0 + pw * ppm, y0 + my * ppm); }
    g.stroke();
  }
  grid('rgb(242,190,190)', 0.1, 1);
  grid('rgb(228,120,120)', 0.18, 5);
  function gauss(t, mu, s, a) { return a * Math.exp(-((t - mu) * (t - mu)) / (2 * s * s)); }
  function beat(t) {
    return gauss(t, 0.1, 0.025, 0.15) + gauss(t, 0.2, 0.008, -0.1) + gauss(t, 0.22, 0.01, 1.4) +
      gauss(t, 0.245, 0.01, -0.35) + gauss(t, 0.45, 0.04, 0.3);
  }
  g.strokeStyle = 'rgb(35,35,40)'; g.lineWidth = 0.35 * ppm;
  [40, 85, 130, 180].forEach(function (baseline) {
    g.beginPath();
    for (var mm = 10; mm < pw - 10; mm += 0.05) {
      var y = y0 + (baseline - beat((mm / 25) % 0.8) * 10) * ppm;
      if (mm === 10) g.moveTo(x0 + mm * ppm, y); else g.lineTo(x0 + mm * ppm, y);
    }
    g.stroke();
  });
  var image = g.getImageData(0, 0, W, H), d = image.data, seed = 42;
  for (var y = 0; y < H; y++) {
    for (var x = 0; x < W; x++) {
      var dx = (x - W / 2) / W, dy = (y - H / 2) / H, light = 1 - 0.72 * (dx * dx + dy * dy), i = (y * W + x) * 4;
      for (var c = 0; c < 3; c++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        d[i + c] = d[i + c] * light + (seed / 2147483648 - 0.5) * 10;
      }
    }
  }
  g.putImageData(image, 0, 0);
  return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
};`;

export async function runMediaSend(): Promise<MediaSendFigures> {
  ensureAppsBuilt();
  const server = await startServer(await freePort());
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  try {
    const context = await browser.newContext({ ...PHONE, baseURL: server.url });
    await context.addInitScript(() => localStorage.setItem('inbound-test-hooks', 'on'));
    const page = await context.newPage();
    await openStrokeCase(page);
    await page.getByRole('heading', { name: /^Case [A-Z]{3}-\d{3}$/ }).waitFor(); // created on the server
    await page.getByRole('tab', { name: 'MEDIA' }).click();
    await page.waitForFunction(() => Boolean((window as HookWindow).__inboundMedia), null, {
      timeout: STEP_TIMEOUT_MS,
    });
    const caseId = await page.evaluate(() => (window as HookWindow).__inboundMedia!.caseId());
    if (!caseId) throw new Error('no open case');

    // Record with the fake camera and microphone, as the Video screen does (1080p asked, H.264 + Opus).
    const recorded = await page.evaluate(async (seconds) => {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: 1920 }, height: { ideal: 1080 } },
        audio: true,
      });
      const recorder = new MediaRecorder(stream, { mimeType: 'video/mp4;codecs=avc1,opus' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
      recorder.start(1_000);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
      recorder.stop();
      await stopped;
      stream.getTracks().forEach((track) => track.stop());
      const blob = new Blob(chunks, { type: recorder.mimeType });
      (window as HookWindow).__benchVideo = blob;
      return { bytes: blob.size, mimeType: recorder.mimeType };
    }, VIDEO_SECONDS);

    const token = await signIn(server.url);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LATENCY_MS,
      downloadThroughput: -1,
      uploadThroughput: UPLINK_BITS_PER_S / 8,
    });

    const tapAt = Date.now();
    const key = await page.evaluate(async (id) => {
      const w = window as HookWindow;
      const item = await w.__inboundMedia!.enqueueMedia({ caseId: id, eventType: 'video', blob: w.__benchVideo! });
      return item.key;
    }, caseId);
    let uploadedAt = 0;
    let readyAt = 0;
    const deadline = tapAt + 10 * 60_000;
    while (!readyAt && Date.now() < deadline) {
      if (!uploadedAt) {
        const sent = await page.evaluate(
          (k) => (window as HookWindow).__inboundMedia!.items().some((i) => i.key === k && i.status === 'sent'),
          key,
        );
        if (sent) uploadedAt = Date.now();
      }
      const res = await fetch(server.url + buildPath(routes.listMedia.path, { id: caseId }), {
        headers: { authorization: authorizationHeader(token) },
      });
      const list = MediaListResponse.parse(await res.json());
      if (list.uploads.some((u) => u.type === 'video' && u.status === 'ready')) readyAt = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!readyAt) throw new Error('the video was not ready within 10 minutes');
    if (!uploadedAt) uploadedAt = readyAt;
    const db = new Database(path.join(server.dataDir, 'inbound.db'), { readonly: true });
    const row = db
      .prepare("select created_at, converted_at from case_media where case_id = ? and type = 'video'")
      .get(caseId) as { created_at: string; converted_at: string | null } | undefined;
    db.close();
    const convertMs = row?.converted_at ? Date.parse(row.converted_at) - Date.parse(row.created_at) : Number.NaN;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    await page.evaluate(RENDER_EKG_PHOTO);
    const photo = await page.evaluate(async () => {
      const w = window as HookWindow & { __benchEkgPhoto?: () => Promise<Blob> };
      const blob = await w.__benchEkgPhoto!();
      const prepared = await w.__inboundMedia!.preparePhoto(blob);
      const bitmap = await createImageBitmap(prepared);
      return { sourceBytes: blob.size, bytes: prepared.size, width: bitmap.width, height: bitmap.height };
    });

    await context.close();
    const wireMs = (recorded.bytes * 8 * 1_000) / UPLINK_BITS_PER_S;
    return {
      video: {
        seconds: VIDEO_SECONDS,
        mimeType: recorded.mimeType,
        bytes: recorded.bytes,
        wireMs,
        uploadedMs: uploadedAt - tapAt,
        convertMs,
        readyMs: readyAt - tapAt,
        transport: recorded.bytes > 4 * 1_048_576 ? 'tus' : 'multipart',
      },
      photo,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(url + routes.signIn.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'medic1', password: 'demo-medic1', twiageClient: 'ems', platform: 'bench' }),
  });
  return SignInResponse.parse(await res.json()).authorizationToken.token;
}

export function printMediaSend(f: MediaSendFigures): void {
  const s = (msValue: number) => `${(msValue / 1_000).toFixed(1)} s`;
  const target = f.video.wireMs * SEND_TARGET_FACTOR;
  console.info(
    `\n== Media send (Chromium fake camera, uplink ${UPLINK_BITS_PER_S / 1e6} Mbit/s, ${LATENCY_MS} ms latency)`,
  );
  console.info(
    `  ${f.video.seconds} s video (${f.video.mimeType}): ${(f.video.bytes / 1_048_576).toFixed(2)} MB, ` +
      `sent as ${f.video.transport}; bytes alone ${s(f.video.wireMs)}`,
  );
  console.info(
    `  tap Send → uploaded ${s(f.video.uploadedMs)} (server conversion ${s(f.video.convertMs)}), ` +
      `→ converted and ready ${s(f.video.readyMs)} ` +
      `(${(f.video.readyMs / f.video.wireMs).toFixed(2)} × bytes/bandwidth); ` +
      `target ≤ ${SEND_TARGET_FACTOR} × bytes/bandwidth = ${s(target)}: ${verdict(f.video.readyMs <= target)}`,
  );
  console.info(
    `  12-lead photo ${f.photo.width}×${f.photo.height} after preparePhoto: ${kb(f.photo.bytes)} ` +
      `(camera JPEG ${kb(f.photo.sourceBytes)}); target ≤ ${kb(PHOTO_TARGET_BYTES)}: ` +
      `${verdict(f.photo.bytes <= PHOTO_TARGET_BYTES)}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printMediaSend(await runMediaSend());
}
