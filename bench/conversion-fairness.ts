/**
 * Conversion fairness (issue 17 item 3, "Figures"; target: another agency's photo ready while two hostile
 * videos convert, p95 ≤ 5 s). Printed beside the target, never asserted.
 *
 * The real server (child process, SQLite, demo data, its default conversion slots and per-job limits).
 * Media made here with Debian's ffmpeg, once per invocation:
 * - two hostile videos: 1920×1080 (the largest the probe caps let through), H.264 in yuv444p (so the
 *   server must transcode, not remux), 60 s at 30 fps, one flat colour — a few tens of KB that cost
 *   tens of seconds of a core to convert;
 * - one video just over the pixel cap (1928×1088), which the probe must refuse;
 * - a ~330 KB JPEG photo (1440×1080, as the crew app's `preparePhoto` sends: stored as sent, ready at
 *   once) and a 1440×1080 PNG of the same picture (converted to JPEG in the pictures lane of the queue).
 *
 * Each run: medic1 (Riverside EMS) uploads the two hostile videos and then the over-cap one to a case of
 * theirs; as soon as they are answered, medic3 (Lakeside Fire Rescue, another agency) uploads photos to
 * a case of theirs, open loop at a fixed rate (JPEG and PNG in turn), whatever the answers do. ed1 (the
 * destination's ED) holds the console's socket on both cases' `case:{id}` channels: an upload is ready
 * for the hospital when a message there (`case.updated` with the upload, or `media.converted`) carries it
 * as `ready` (or `failed`) — what the console applies. Each is timed from the moment its upload is sent.
 * Server CPU: the server's process group (Node, ffprobe, ffmpeg) over the run, in cores. Three runs,
 * the median of each figure.
 */
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { WebSocket } from 'ws';
import { authorizationHeader, ServerFrame } from '@inbound/contract';
import { signInAs } from './lib/console';
import { verdict } from './lib/format';
import { freePort, startServer, type BenchServer } from './lib/server';

export const TARGET_P95_MS = 5_000;
const RIVERSIDE = 'hospital-riverside-regional';
const ST_MARYS = 'hospital-st-marys';
const PHOTOS_PER_RUN = Number(process.env.BENCH_PHOTOS ?? 30);
const PHOTOS_PER_S = Number(process.env.BENCH_PHOTOS_PER_S ?? 0.5);
const VIDEO_SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);
/** How long a run waits for every upload to be ready or failed (the server's job timeout is 120 s). */
const SETTLE_TIMEOUT_MS = 400_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface MediaFiles {
  dir: string;
  hostile: string;
  overCap: string;
  jpeg: string;
  png: string;
}

export interface VideoFigure {
  /** Upload sent → ready or failed on the console's socket; NaN when neither came. */
  ms: number;
  status: 'ready' | 'failed' | 'none';
  failure: string | null;
}

export interface RunFigures {
  jpeg: { p50: number; p95: number; max: number; count: number; missing: number };
  png: { p50: number; p95: number; max: number; count: number; missing: number };
  all: { p50: number; p95: number; max: number; count: number; missing: number };
  /** Photos sent before the second hostile video finished. */
  photosDuringVideos: number;
  hostile: VideoFigure[];
  overCap: VideoFigure;
  serverCores: number;
  serverCpuSeconds: number;
  wallSeconds: number;
  loadAverage: number;
}

function ffmpeg(args: string[]): void {
  execFileSync('nice', ['-n', '5', 'ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export function makeMedia(): MediaFiles {
  const dir = mkdtempSync(path.join(tmpdir(), 'inbound-convbench-'));
  const files: MediaFiles = {
    dir,
    hostile: path.join(dir, 'hostile.mp4'),
    overCap: path.join(dir, 'over-cap.mp4'),
    jpeg: path.join(dir, 'photo.jpg'),
    png: path.join(dir, 'photo.png'),
  };
  const still = ['-f', 'lavfi', '-i', 'testsrc2=s=1440x1080', '-vf', 'noise=alls=16:allf=u', '-frames:v', '1'];
  ffmpeg([...still, '-q:v', '3', files.jpeg]);
  ffmpeg([...still, files.png]);
  const flat = (size: string, seconds: number, out: string) =>
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `color=c=0x405060:s=${size}:r=30:d=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '30',
      '-g',
      String(seconds * 30),
      '-pix_fmt',
      'yuv444p',
      out,
    ]);
  flat('1920x1080', VIDEO_SECONDS, files.hostile);
  flat('1928x1088', 2, files.overCap);
  return files;
}

async function call(url: string, token: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      Authorization: authorizationHeader(token),
      'Idempotency-Key': randomUUID(),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function newCase(
  url: string,
  token: string,
  agency: string,
  truck: string,
  destination: string,
): Promise<string> {
  const created = await call(url, token, 'POST', `/v4/twiageCases?placeholderId=placeholder-${randomUUID()}`, {
    emsAgency: agency,
    truck,
    beganAt: new Date().toISOString(),
  });
  const id = String(created.id);
  await call(url, token, 'PATCH', `/v4/twiageCases/${id}`, { destinationHospital: destination });
  return id;
}

/** A multipart upload as the crew app sends it; resolves with the upload's id (or throws on a refusal). */
async function upload(url: string, token: string, caseId: string, type: 'photo' | 'video', file: string) {
  const form = new FormData();
  form.append('type', type);
  form.append('data', new Blob([readFileSync(file)]), path.basename(file));
  const res = await fetch(`${url}/media/twiage-cases/${caseId}/uploads`, {
    method: 'POST',
    headers: { Authorization: authorizationHeader(token), 'Idempotency-Key': randomUUID() },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload ${type}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { upload: { id: string } }).upload.id;
}

interface Settled {
  at: number;
  status: 'ready' | 'failed';
  failure: string | null;
}

/** A socket on one case's channel, as the console holds it: when each upload was first seen ready or failed. */
async function caseSocket(
  server: BenchServer,
  token: string,
  caseId: string,
  settled: Map<string, Settled>,
): Promise<() => void> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/realtime`);
  await new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (raw) => {
      const at = performance.now();
      const frame = ServerFrame.safeParse(JSON.parse(String(raw)));
      if (!frame.success) return;
      const f = frame.data;
      if (f.type === 'ready') ws.send(JSON.stringify({ type: 'subscribe', channel: `case:${caseId}` }));
      if (f.type === 'subscribed') resolve();
      if (f.type !== 'message') return;
      const upload = (f.event.data as { upload?: { id: string; status: string; failure?: string | null } }).upload;
      if (!upload || settled.has(upload.id)) return;
      if (upload.status === 'ready' || upload.status === 'failed')
        settled.set(upload.id, { at, status: upload.status, failure: upload.failure ?? null });
    });
  });
  return () => ws.close();
}

/**
 * The reason kept for a failed upload: the server keeps it in `case_media.failure` and tells clients
 * only `failed`; read from the server's SQLite file.
 */
function withReason(server: BenchServer, id: string, figure: VideoFigure): VideoFigure {
  if (figure.status !== 'failed') return figure;
  const db = new Database(path.join(server.dataDir, 'inbound.db'), { readonly: true });
  try {
    const row = db.prepare('select failure from case_media where id = ?').get(id) as
      { failure: string | null } | undefined;
    return { ...figure, failure: row?.failure ?? null };
  } finally {
    db.close();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function oneRun(server: BenchServer, media: MediaFiles, tokens: Record<string, string>): Promise<RunFigures> {
  const hostileCase = await newCase(
    server.url,
    tokens.medic1!,
    'agency-riverside-ems',
    'truck-riverside-medic-1',
    RIVERSIDE,
  );
  const photoCase = await newCase(
    server.url,
    tokens.medic3!,
    'agency-lakeside-fire-rescue',
    'truck-lakeside-rescue-7',
    ST_MARYS,
  );
  // ed1 (Riverside's ED) holds the hostile case's channel; the demo data has no ED user at St Mary's, so
  // the photo case's channel — the same messages its console would get — is held by medic3's own socket.
  const settled = new Map<string, Settled>();
  const sockets = [
    await caseSocket(server, tokens.ed1!, hostileCase, settled),
    await caseSocket(server, tokens.medic3!, photoCase, settled),
  ];
  const board = { settled, close: () => sockets.forEach((close) => close()) };
  const loadAverage = loadavg()[0] ?? NaN;
  const cpuBefore = server.cpuSeconds();
  const wallBefore = performance.now();

  // The hostile crew: two expensive videos, then one over the caps, in the order a crew would send them.
  const videoSent: number[] = [];
  const videoIds: string[] = [];
  for (const file of [media.hostile, media.hostile, media.overCap]) {
    videoSent.push(performance.now());
    videoIds.push(await upload(server.url, tokens.medic1!, hostileCase, 'video', file));
  }

  // Another agency's photos, open loop at a fixed rate, JPEG and PNG in turn.
  const photoSent = new Map<string, { at: number; kind: 'jpeg' | 'png' }>();
  const sends: Promise<void>[] = [];
  let refused = 0;
  let at = performance.now();
  for (let n = 0; n < PHOTOS_PER_RUN; n++) {
    const delay = at - performance.now();
    if (delay > 0) await sleep(delay);
    at += 1000 / PHOTOS_PER_S;
    const kind = n % 2 === 0 ? 'jpeg' : 'png';
    const sentAt = performance.now();
    sends.push(
      upload(server.url, tokens.medic3!, photoCase, 'photo', kind === 'jpeg' ? media.jpeg : media.png).then(
        (id) => void photoSent.set(id, { at: sentAt, kind }),
        (error: unknown) => {
          refused += 1;
          console.error(`  photo refused: ${(error as Error).message}`);
        },
      ),
    );
  }
  await Promise.all(sends);
  const deadline = performance.now() + SETTLE_TIMEOUT_MS;
  const waited = [...videoIds, ...photoSent.keys()];
  while (performance.now() < deadline && !waited.every((id) => board.settled.has(id))) await sleep(200);
  const serverCpuSeconds = server.cpuSeconds() - cpuBefore;
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  board.close();

  const video = (i: number): VideoFigure => {
    const s = board.settled.get(videoIds[i]!);
    return s
      ? withReason(server, videoIds[i]!, { ms: s.at - videoSent[i]!, status: s.status, failure: s.failure })
      : { ms: NaN, status: 'none', failure: null };
  };
  const hostile = [video(0), video(1)];
  const lastVideoDone = Math.max(...[0, 1].map((i) => board.settled.get(videoIds[i]!)?.at ?? Infinity));
  const figures = (kind?: 'jpeg' | 'png') => {
    const mine = [...photoSent].filter(([, p]) => !kind || p.kind === kind);
    const times = mine
      .filter(([id]) => board.settled.get(id)?.status === 'ready')
      .map(([id, p]) => board.settled.get(id)!.at - p.at)
      .sort((a, b) => a - b);
    const expected = kind ? Math.ceil(PHOTOS_PER_RUN / 2) - (kind === 'png' ? PHOTOS_PER_RUN % 2 : 0) : PHOTOS_PER_RUN;
    return {
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: times.at(-1) ?? NaN,
      count: times.length,
      missing: expected - times.length,
    };
  };
  if (refused) console.error(`  ${refused} photo(s) refused (counted as missing)`);
  return {
    jpeg: figures('jpeg'),
    png: figures('png'),
    all: figures(),
    photosDuringVideos: [...photoSent.values()].filter((p) => p.at < lastVideoDone).length,
    hostile,
    overCap: video(2),
    serverCores: serverCpuSeconds / wallSeconds,
    serverCpuSeconds,
    wallSeconds,
    loadAverage,
  };
}

export interface ConversionFairness {
  runs: RunFigures[];
  median: RunFigures;
  media: string;
  /** The over-cap video on an idle queue (nothing of its uploader's ahead of it): the refusal itself. */
  overCapAlone: VideoFigure;
}

/** The over-cap video alone, before the runs: how long the probe's refusal takes with nothing ahead of it. */
async function overCapAlone(server: BenchServer, media: MediaFiles, tokens: Record<string, string>) {
  const caseId = await newCase(
    server.url,
    tokens.medic1!,
    'agency-riverside-ems',
    'truck-riverside-medic-1',
    RIVERSIDE,
  );
  const settled = new Map<string, Settled>();
  const close = await caseSocket(server, tokens.ed1!, caseId, settled);
  const sent = performance.now();
  const id = await upload(server.url, tokens.medic1!, caseId, 'video', media.overCap);
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline && !settled.has(id)) await sleep(50);
  close();
  const s = settled.get(id);
  return s
    ? withReason(server, id, { ms: s.at - sent, status: s.status, failure: s.failure })
    : { ms: NaN, status: 'none' as const, failure: null };
}

export async function runConversionFairness(): Promise<ConversionFairness> {
  const media = makeMedia();
  const sizes = (['hostile', 'overCap', 'jpeg', 'png'] as const)
    .map((k) => `${k} ${(statSync(media[k]).size / 1024).toFixed(0)} KB`)
    .join(', ');
  const server = await startServer(await freePort());
  try {
    const tokens = {
      medic1: await signInAs(server.url, 'medic1', 'ems'),
      medic3: await signInAs(server.url, 'medic3', 'ems'),
      ed1: await signInAs(server.url, 'ed1', 'hospital'),
    };
    const alone = await overCapAlone(server, media, tokens);
    console.info(`  over the caps, alone on an idle queue: ${describeVideo(alone)}`);
    const runs: RunFigures[] = [];
    for (let r = 0; r < RUNS; r++) {
      const run = await oneRun(server, media, tokens);
      printRun(`run ${r + 1}`, run);
      runs.push(run);
    }
    const mid = (pick: (x: RunFigures) => number) => runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    const stat = (pick: (x: RunFigures) => RunFigures['all']) => ({
      p50: mid((x) => pick(x).p50),
      p95: mid((x) => pick(x).p95),
      max: mid((x) => pick(x).max),
      count: mid((x) => pick(x).count),
      missing: mid((x) => pick(x).missing),
    });
    const videoMedian = (i: number): VideoFigure => {
      const v = runs.map((x) => (i < 2 ? x.hostile[i]! : x.overCap));
      const ms = v.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
      const failures = [...new Set(v.map((x) => x.failure).filter(Boolean))];
      const statuses = [...new Set(v.map((x) => x.status))];
      return { ms, status: statuses.length === 1 ? statuses[0]! : 'none', failure: failures.join(' / ') || null };
    };
    return {
      runs,
      media: sizes,
      overCapAlone: alone,
      median: {
        jpeg: stat((x) => x.jpeg),
        png: stat((x) => x.png),
        all: stat((x) => x.all),
        photosDuringVideos: mid((x) => x.photosDuringVideos),
        hostile: [videoMedian(0), videoMedian(1)],
        overCap: videoMedian(2),
        serverCores: mid((x) => x.serverCores),
        serverCpuSeconds: mid((x) => x.serverCpuSeconds),
        wallSeconds: mid((x) => x.wallSeconds),
        loadAverage: mid((x) => x.loadAverage),
      },
    };
  } finally {
    await server.stop();
    rmSync(media.dir, { recursive: true, force: true });
  }
}

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '—');
const describeVideo = (v: VideoFigure) =>
  v.status === 'none' ? 'not settled' : `${v.status} after ${s(v.ms)}${v.failure ? ` (${v.failure})` : ''}`;

function printRun(label: string, f: RunFigures): void {
  const line = (name: string, x: RunFigures['all']) =>
    `${name} p50 ${s(x.p50)} p95 ${s(x.p95)} max ${s(x.max)} (${x.count} ready${x.missing ? `, ${x.missing} never` : ''})`;
  console.info(
    `  ${label} (load average ${f.loadAverage.toFixed(1)}): photos ${line('all', f.all)}; ${line('JPEG', f.jpeg)}; ` +
      `${line('PNG', f.png)}; ${f.photosDuringVideos} sent while a hostile video converted`,
  );
  console.info(
    `    hostile videos: ${f.hostile.map(describeVideo).join('; ')}; over the caps: ${describeVideo(f.overCap)}; ` +
      `server CPU ${f.serverCpuSeconds.toFixed(0)} s over ${f.wallSeconds.toFixed(0)} s = ${f.serverCores.toFixed(2)} cores`,
  );
}

export function printConversionFairness(result: ConversionFairness): void {
  const f = result.median;
  console.info(
    `\n== Conversion fairness (another agency's photos while two hostile videos convert), median of ${RUNS}`,
  );
  console.info(`  media: ${result.media}`);
  console.info(
    `  JPEG photo (as the crew app sends it; stored as sent) ready for the hospital: p50 ${s(f.jpeg.p50)}, ` +
      `p95 ${s(f.jpeg.p95)} (target ≤ ${s(TARGET_P95_MS)}) ${verdict(f.jpeg.p95 <= TARGET_P95_MS)}, ` +
      `max ${s(f.jpeg.max)}; never ready: ${f.jpeg.missing}`,
  );
  console.info(
    `  PNG photo (converted to JPEG in the pictures lane): p50 ${s(f.png.p50)}, p95 ${s(f.png.p95)} ` +
      `${verdict(f.png.p95 <= TARGET_P95_MS)}, max ${s(f.png.max)}; never ready: ${f.png.missing}; ` +
      `${f.photosDuringVideos} of ${PHOTOS_PER_RUN} photos sent while a hostile video converted`,
  );
  console.info(
    `  hostile videos: ${f.hostile.map(describeVideo).join('; ')}; over the caps, sent after them: ` +
      `${describeVideo(f.overCap)}; alone on an idle queue: ${describeVideo(result.overCapAlone)}`,
  );
  console.info(
    `  server CPU ${f.serverCores.toFixed(2)} cores (${f.serverCpuSeconds.toFixed(0)} s over ${f.wallSeconds.toFixed(0)} s); ` +
      `load average ${f.loadAverage.toFixed(1)} on 2 cores`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.info(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores)`,
  );
  console.info(
    `conversion fairness: two ${VIDEO_SECONDS} s 1920×1080 yuv444p videos + one over the caps from medic1, then ` +
      `${PHOTOS_PER_RUN} photos from medic3 at ${PHOTOS_PER_S}/s (open loop); ${RUNS} runs`,
  );
  printConversionFairness(await runConversionFairness());
}
