import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  CreateCaseResponse,
  MEDIA_MAX_BYTES,
  MEDIA_TUS_PATH,
  MediaListResponse,
  MediaUploadResponse,
  routes,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const exec = promisify(execFile);

describe('uploads over a real connection: tus, and a refused multipart body', () => {
  let t: TestApp;
  let base: string;
  let medic1: string;
  let medic2: string;
  let video: Buffer;
  let workDir: string;

  const metadata = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');

  async function create(token: string, size: number, fields: Record<string, string>) {
    return fetch(`${base}${MEDIA_TUS_PATH}`, {
      method: 'POST',
      headers: {
        authorization: authorizationHeader(token),
        'tus-resumable': '1.0.0',
        'upload-length': String(size),
        'upload-metadata': metadata(fields),
      },
    });
  }

  const head = (location: string, token: string) =>
    fetch(`${base}${location}`, {
      method: 'HEAD',
      headers: { authorization: authorizationHeader(token), 'tus-resumable': '1.0.0' },
    });

  const patch = (location: string, token: string, offset: number, bytes: Buffer) =>
    fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: {
        authorization: authorizationHeader(token),
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      body: bytes,
    });

  /** A PATCH whose connection breaks after `sent` of the bytes: what a tunnel or a dead zone does. */
  function interruptedPatch(location: string, token: string, bytes: Buffer, sent: number): Promise<void> {
    return new Promise((resolve) => {
      const url = new URL(`${base}${location}`);
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'PATCH',
        headers: {
          authorization: authorizationHeader(token),
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(bytes.length),
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(bytes.subarray(0, sent), () => {
        // Give the server time to write what arrived, then drop the connection mid-body.
        setTimeout(() => req.destroy(), 400);
      });
    });
  }

  async function startCase(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v4/twiageCases?placeholder-${Date.now()}`,
      headers: { authorization: authorizationHeader(medic1), 'idempotency-key': randomUUID() },
      payload: {
        emsAgency: IDS.agencies.riverside,
        truck: 'truck-riverside-medic-1',
        beganAt: new Date().toISOString(),
      },
    });
    return CreateCaseResponse.parse(res.json()).id;
  }

  async function uploads(caseId: string) {
    const res = await t.get(buildPath(routes.listMedia.path, { id: caseId }), medic1);
    return MediaListResponse.parse(res.json());
  }

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'inbound-tus-test-'));
    const file = path.join(workDir, 'large.mp4');
    // ~3 MB: H.264 at a high bitrate, Opus audio — large enough to break in the middle.
    const make = exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      // Noise keeps the encoder from compressing the test pattern to almost nothing.
      ...['-t', '5', '-vf', 'noise=alls=40:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '4M'],
      ...['-pix_fmt', 'yuv420p'],
      ...['-c:a', 'libopus', '-f', 'mp4', file],
    ]);
    t = await createTestApp();
    await make;
    video = readFileSync(file);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    [medic1, medic2] = await Promise.all([t.signIn('medic1'), t.signIn('medic2')]);
  }, 120_000);

  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('resumes an interrupted upload from its offset and records it once, like a multipart upload', async () => {
    const caseId = await startCase();
    const key = randomUUID();
    const created = await create(medic1, video.length, { caseId, type: 'video', idempotencyKey: key });
    expect(created.status, await created.clone().text()).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location.startsWith(`${MEDIA_TUS_PATH}/`)).toBe(true);

    const half = Math.floor(video.length / 2);
    await interruptedPatch(location, medic1, video, half);

    const afterBreak = await head(location, medic1);
    expect(afterBreak.status).toBe(200);
    const offset = Number(afterBreak.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    expect(Number(afterBreak.headers.get('upload-length'))).toBe(video.length);
    expect((await uploads(caseId)).uploads).toHaveLength(0);

    // Someone else cannot see or continue it.
    expect((await head(location, medic2)).status).toBe(404);
    expect((await patch(location, medic2, offset, video.subarray(offset))).status).toBe(404);
    // A resume from a wrong offset is refused by tus (409), the right one completes.
    expect((await patch(location, medic1, 0, video)).status).toBe(409);
    const done = await patch(location, medic1, offset, video.subarray(offset));
    expect(done.status).toBe(200);
    const answer = MediaUploadResponse.parse(await done.json());
    expect(answer.upload).toMatchObject({ type: 'video', fileName: 'video.mp4', size: video.length });
    expect(answer.mediaCounts.video).toBe(1);

    // The bytes stored are the bytes sent: served whole once converted (a remux keeps the duration).
    const listed = await uploads(caseId);
    expect(listed.uploads.map((u) => u.id)).toEqual([answer.upload.id]);

    // The same Idempotency-Key in a second tus upload (a crew app that lost the answer) records nothing new.
    const again = await create(medic1, video.length, { caseId, type: 'video', idempotencyKey: key });
    const replay = await patch(again.headers.get('location') ?? '', medic1, 0, video);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(MediaUploadResponse.parse(await replay.json()).upload.id).toBe(answer.upload.id);
    expect((await uploads(caseId)).uploads).toHaveLength(1);
  }, 60_000);

  it('refuses at creation: over the type limit (413), bad metadata (400), another crew (403), no token (401)', async () => {
    const caseId = await startCase();
    const fields = { caseId, type: 'photo', idempotencyKey: randomUUID() };
    const tooLarge = await create(medic1, MEDIA_MAX_BYTES.photo + 1, fields);
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { message: string }).message).toBe(
      'The photo file is too large: at most 15 MB.',
    );
    expect((await create(medic1, 100, { caseId, type: 'xray', idempotencyKey: randomUUID() })).status).toBe(400);
    expect((await create(medic1, 100, { caseId, type: 'photo' })).status).toBe(400);
    expect((await create(medic2, 100, fields)).status).toBe(403);
    const anonymous = await fetch(`${base}${MEDIA_TUS_PATH}`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '100', 'upload-metadata': metadata(fields) },
    });
    expect(anonymous.status).toBe(401);
  });

  it("answers a missing Tus-Resumable as { message, code }; a wrong offset stays tus's resumable 409", async () => {
    const caseId = await startCase();
    const created = await create(medic1, 10, { caseId, type: 'photo', idempotencyKey: randomUUID() });
    const location = created.headers.get('location')!;
    const noVersion = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: {
        authorization: authorizationHeader(medic1),
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.from('abc'),
    });
    expect(noVersion.status).toBe(412);
    expect(await noVersion.json()).toEqual({ message: 'The Tus-Resumable header is required.', code: 'bad_request' });
    const wrongOffset = await patch(location, medic1, 5, Buffer.from('abc'));
    expect(wrongOffset.status).toBe(409);
    // No `message`: the crew app reads that as "re-read the offset and resume", not as a refusal.
    const body = await wrongOffset.text();
    expect(body).toContain('Upload-Offset conflict');
    expect(() => (JSON.parse(body) as { message?: unknown }).message).toThrow();
  });

  it('answers an oversize multipart upload 413 while its body is still arriving, and closes that connection', async () => {
    const caseId = await startCase();
    const big = new Uint8Array(40 * 1_048_576);
    big.set([0xff, 0xd8, 0xff]);
    const form = new FormData();
    form.append('type', 'photo');
    form.append('data', new Blob([big]), 'photo.jpg');
    const res = await fetch(`${base}${buildPath(routes.uploadMedia.path, { id: caseId })}`, {
      method: 'POST',
      headers: { authorization: authorizationHeader(medic1), 'idempotency-key': randomUUID() },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(((await res.json()) as { message: string }).message).toBe('The photo file is too large: at most 15 MB.');
  }, 30_000);

  it('sniffs a finished upload like any other: text as a video is 415, an empty file 400', async () => {
    const caseId = await startCase();
    const text = Buffer.from('not a video, only text pretending to be one');
    const created = await create(medic1, text.length, { caseId, type: 'video', idempotencyKey: randomUUID() });
    const refused = await patch(created.headers.get('location') ?? '', medic1, 0, text);
    expect(refused.status).toBe(415);
    const empty = await create(medic1, 0, { caseId, type: 'photo', idempotencyKey: randomUUID() });
    expect(empty.status).toBe(400);
    expect((await uploads(caseId)).uploads).toHaveLength(0);
  });
});
