import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { expect, test as base, type Page } from '@playwright/test';
import { apiToken, caseNumberFromHeading, caseIdByNumber, expectNothingWaiting, startCase } from '../support/cases';
import { serviceWorkerInControl, signInToStart } from '../support/crew';
import { teams, users } from '../support/demo';
import { startLinkProxy, type LinkProxy } from '../support/proxy';

// Issue 6, delivery: a video above 4 MB goes resumably (tus). The crew app is loaded through a TCP proxy;
// mid-upload the link is blackholed (the browser still believes it is online), the page is reloaded
// (the service worker serves the app), then the link comes back. The reloaded outbox asks the server
// for the offset and sends only the rest: the server gets one upload, whole, recorded once.
const test = base.extend<{ link: LinkProxy }>({
  link: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured
    async ({}, use) => {
      const link = await startLinkProxy({ host: '127.0.0.1', port: Number(process.env.E2E_PORT) });
      await use(link);
      await link.close();
    },
    { timeout: 10_000 },
  ],
});
test.use({ baseURL: async ({ link }, use) => use(link.url) });

interface Hooks {
  preparePhoto(source: Blob): Promise<Blob>;
  enqueueMedia(input: { caseId: string; eventType: 'video'; blob: Blob }): Promise<{ key: string }>;
  items(): readonly { key: string; status: string; progress: number }[];
  caseId(): string | null;
}
type HookWindow = Window & { __inboundMedia?: Hooks; __e2eVideo?: Blob };

const exec = promisify(execFile);

/** ~6 MB of H.264 (noise defeats the encoder) with Opus audio in MP4: what a crew's 20 s video weighs. */
async function largeVideo(): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'e2e-media-resume-'));
  const file = path.join(dir, 'large.mp4');
  try {
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', '8', '-vf', 'noise=alls=40:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '6M'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'libopus', '-f', 'mp4', file],
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function signInWithWarmServiceWorker(page: Page): Promise<void> {
  await page.goto('/');
  await serviceWorkerInControl(page);
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
}

test('a large video cut mid-upload resumes after a reload from the server offset and is recorded once', async ({
  page,
  link,
}) => {
  test.slow();
  const serverURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
  const dataDir = process.env.E2E_DATA_DIR!;
  const video = await largeVideo();
  expect(video.length, 'above the 4 MB of MEDIA_RESUMABLE_ABOVE_BYTES').toBeGreaterThan(4 * 1_048_576);

  await page.addInitScript(() => localStorage.setItem('inbound-test-hooks', 'on'));
  await signInWithWarmServiceWorker(page);
  await startCase(page);
  const caseNumber = await caseNumberFromHeading(page); // the case exists on the server
  const caseId = caseIdByNumber(dataDir, caseNumber)!;
  await page.getByRole('tab', { name: 'MEDIA' }).click();
  await page.waitForFunction(() => Boolean((window as HookWindow).__inboundMedia));

  // Every tus request the page makes, with the offset it resumes from.
  const tus: { method: string; offset: number | null }[] = [];
  let uploadUrl: string | null = null;
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/media/uploads') {
      uploadUrl = response.headers()['location'] ?? null;
    }
  });
  page.on('request', (request) => {
    if (!new URL(request.url()).pathname.startsWith('/media/uploads')) return;
    const offset = request.headers()['upload-offset'];
    tus.push({ method: request.method(), offset: offset === undefined ? null : Number(offset) });
  });

  await page.evaluate((base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    (window as HookWindow).__e2eVideo = new Blob([bytes], { type: 'video/mp4' });
  }, video.toString('base64'));
  // Slow enough to cut in the middle: ~6 MB at 2 Mbit/s is ~25 s.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 50,
    downloadThroughput: -1,
    uploadThroughput: 250_000,
  });
  const key = await page.evaluate(async (id) => {
    const w = window as HookWindow;
    return (await w.__inboundMedia!.enqueueMedia({ caseId: id, eventType: 'video', blob: w.__e2eVideo! })).key;
  }, caseId);
  await expect
    .poll(() => page.evaluate((k) => (window as HookWindow).__inboundMedia!.items().find((i) => i.key === k), key), {
      timeout: 20_000,
    })
    .toMatchObject({ status: 'sending' });
  await page.waitForFunction(
    (k) => ((window as HookWindow).__inboundMedia!.items().find((i) => i.key === k)?.progress ?? 0) >= 0.3,
    key,
    { timeout: 20_000 },
  );

  // What the server holds of it (asked directly, not through the proxy), once some bytes have arrived.
  const token = await apiToken(serverURL, users.medic1.username);
  const serverOffset = async () => {
    if (!uploadUrl) return 0;
    const head = await fetch(new URL(uploadUrl, serverURL), {
      method: 'HEAD',
      headers: { Authorization: `JWT ${token}`, 'Tus-Resumable': '1.0.0' },
    });
    return Number(head.headers.get('upload-offset') ?? 0);
  };
  await expect.poll(serverOffset, { timeout: 30_000 }).toBeGreaterThan(0);
  const offsetAtCut = await serverOffset();

  // The link dies mid-upload, and the crew reloads the app.
  link.blackhole();
  await page.waitForTimeout(500);
  // Counted before the reload: the reloaded outbox may ask for the offset before reload() returns.
  const beforeResume = tus.length;
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker(), 'the page came from the service worker').toBe(true);
  link.restore();

  // The server holds part of the file; the reloaded page resumes it.
  const recorded = () => {
    const db = new Database(path.join(dataDir, 'inbound.db'), { readonly: true });
    try {
      return db.prepare('SELECT type, original_size FROM case_media WHERE case_id = ?').all(caseId);
    } finally {
      db.close();
    }
  };
  await expect.poll(recorded, { timeout: 90_000, message: 'the video reaches the server' }).toHaveLength(1);
  expect(recorded(), 'recorded once, whole').toEqual([{ type: 'video', original_size: video.length }]);
  await expectNothingWaiting(page, 30_000);
  const after = tus.slice(beforeResume);

  expect(
    tus.filter((r) => r.method === 'POST'),
    'one tus upload, never created again',
  ).toHaveLength(1);
  expect(
    after.some((r) => r.method === 'HEAD'),
    'asked the server for the offset',
  ).toBe(true);
  const resumedFrom = after.find((r) => r.method === 'PATCH')?.offset ?? 0;
  test.info().annotations.push({
    type: 'resumed',
    description: `from ${resumedFrom} of ${video.length} bytes; tus requests: ${JSON.stringify(tus)}`,
  });
  expect(resumedFrom, 'resumed from the offset the server had').toBeGreaterThanOrEqual(offsetAtCut);
  expect(offsetAtCut).toBeGreaterThan(0);

  const listed = await fetch(`${serverURL}/media/twiage-cases/${caseId}/uploads`, {
    headers: { Authorization: `JWT ${token}` },
  });
  expect(((await listed.json()) as { uploads: unknown[] }).uploads).toHaveLength(1);
});

test('preparePhoto: a 4032×3024 camera JPEG with EXIF becomes a 1440×1080 JPEG without it', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('inbound-test-hooks', 'on'));
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await startCase(page);
  await page.getByRole('tab', { name: 'MEDIA' }).click();
  await page.waitForFunction(() => Boolean((window as HookWindow).__inboundMedia));
  const result = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(4032, 3024);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#fcf6f0';
    g.fillRect(0, 0, 4032, 3024);
    g.strokeStyle = '#e47878';
    for (let x = 0; x < 4032; x += 16) g.strokeRect(x, 0, 1, 3024);
    const plain = new Uint8Array(
      await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.95 })).arrayBuffer(),
    );
    // A camera's APP1 Exif segment (with a GPS tag name in it) right after the JPEG's SOI marker.
    const text = new TextEncoder().encode('Exif\0\0MM\0*\0\0\0\bGPSLatitude 42.36N GPSLongitude 71.06W');
    const app1 = new Uint8Array([0xff, 0xe1, (text.length + 2) >> 8, (text.length + 2) & 0xff, ...text]);
    const withExif = new Blob([plain.slice(0, 2), app1, plain.slice(2)], { type: 'image/jpeg' });
    const prepared = await (window as HookWindow).__inboundMedia!.preparePhoto(withExif);
    const bytes = new Uint8Array(await prepared.arrayBuffer());
    const bitmap = await createImageBitmap(prepared);
    const latin = Array.from(bytes, (b) => String.fromCharCode(b)).join('');
    return {
      type: prepared.type,
      width: bitmap.width,
      height: bitmap.height,
      soi: bytes[0] === 0xff && bytes[1] === 0xd8,
      sourceHadExif: new TextDecoder('latin1').decode(await withExif.arrayBuffer()).includes('GPSLatitude'),
      exif: latin.includes('Exif') || latin.includes('GPSLatitude'),
      bytes: prepared.size,
    };
  });
  expect(result).toMatchObject({ type: 'image/jpeg', width: 1440, height: 1080, soi: true, sourceHadExif: true });
  expect(result.exif, 'the EXIF (GPS) is gone').toBe(false);
  expect(result.bytes).toBeLessThanOrEqual(400 * 1024);
});
