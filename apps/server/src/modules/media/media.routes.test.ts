import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  Case,
  CreateCaseResponse,
  MEDIA_ACCESS_TTL_MS,
  MEDIA_MAX_BYTES,
  MediaAccessResponse,
  MediaListResponse,
  MediaUploadResponse,
  routes,
  type MediaType,
  type MediaUpload,
} from '@inbound/contract';
import { buildApp } from '../../app.js';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { makeTestMedia, probeFile, seconds, streamOf, type TestMedia } from './test-media.js';

const TRUCK = 'truck-riverside-medic-1';

/** A multipart body as a browser's FormData makes it (fields in the order given). */
async function multipart(fields: [string, string | Blob][]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, 'recording');
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

describe('media routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic2: string;
  let ed1: string;
  let media: TestMedia;
  let workDir: string;

  const uploadsPath = (caseId: string) => buildPath(routes.uploadMedia.path, { id: caseId });

  async function upload(
    caseId: string,
    type: string,
    data: Buffer,
    options: { token?: string; key?: string | null; declared?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const { body, contentType } = await multipart([
      ['type', type],
      // The declared type is what a client claims; the server must not trust it.
      ['data', new Blob([data], { type: options.declared ?? 'application/octet-stream' })],
    ]);
    const headers: Record<string, string> = {
      authorization: authorizationHeader(options.token ?? medic1),
      'content-type': contentType,
      'created-at': new Date().toISOString(),
    };
    const key = options.key === undefined ? randomUUID() : options.key;
    if (key !== null) headers['idempotency-key'] = key;
    return t.app.inject({ method: 'POST', url: uploadsPath(caseId), headers, payload: body });
  }

  async function startCase(token = medic1): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v4/twiageCases?placeholder-${Date.now()}`,
      headers: { authorization: authorizationHeader(token), 'idempotency-key': randomUUID() },
      payload: { emsAgency: IDS.agencies.riverside, truck: TRUCK, beganAt: new Date().toISOString() },
    });
    expect(res.statusCode, res.body).toBe(201);
    return CreateCaseResponse.parse(res.json()).id;
  }

  async function patchCase(caseId: string, body: object) {
    const res = await t.app.inject({
      method: 'PATCH',
      url: buildPath(routes.patchCase.path, { id: caseId }),
      headers: { authorization: authorizationHeader(medic1), 'idempotency-key': randomUUID() },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function list(caseId: string, token = medic1) {
    const res = await t.get(uploadsPath(caseId), token);
    expect(res.statusCode, res.body).toBe(200);
    return MediaListResponse.parse(res.json());
  }

  /** Polls the case's upload list (as the console does) until the upload has left `processing`. */
  async function whenConverted(caseId: string, uploadId: string): Promise<MediaUpload> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = (await list(caseId)).uploads.find((u) => u.id === uploadId);
      if (found && found.status !== 'processing') return found;
      if (Date.now() > deadline) throw new Error(`upload ${uploadId} still processing`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Downloads the file and probes it with ffprobe. */
  async function download(found: MediaUpload) {
    const res = await t.get(found.url, medic1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(found.contentType);
    expect(res.headers['cache-control']).toBe('private');
    const file = path.join(workDir, `${found.id}-${found.fileName}`);
    writeFileSync(file, res.rawPayload);
    return { bytes: res.rawPayload, info: await probeFile(file) };
  }

  async function uploadAndConvert(caseId: string, type: MediaType, data: Buffer) {
    const res = await upload(caseId, type, data);
    expect(res.statusCode, res.body).toBe(201);
    const answer = MediaUploadResponse.parse(res.json());
    return { answer, converted: await whenConverted(caseId, answer.upload.id) };
  }

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'inbound-media-test-'));
    [t, media] = await Promise.all([createTestApp(), makeTestMedia(workDir)]);
    [medic1, medic2, ed1] = await Promise.all([t.signIn('medic1'), t.signIn('medic2'), t.signIn('ed1')]);
  }, 120_000);

  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('takes a JPEG photo as it is: ready at once, in the case uploads and counts, served as photo.jpeg', async () => {
    const caseId = await startCase();
    const res = await upload(caseId, 'photo', media.jpeg, { declared: 'image/gif' });
    expect(res.statusCode, res.body).toBe(201);
    const answer = MediaUploadResponse.parse(res.json());
    expect(answer.upload).toMatchObject({ type: 'photo', status: 'ready', fileName: 'photo.jpeg' });
    expect(answer.upload.contentType).toBe('image/jpeg');
    expect(answer.mediaCounts).toEqual({ photo: 1, id: 0, ekg: 0, video: 0, voicememo: 0 });
    expect(answer.event.type).toBe('photo');

    const file = await t.get(answer.upload.url, medic1);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['accept-ranges']).toBe('bytes');
    expect(Buffer.compare(file.rawPayload, media.jpeg)).toBe(0);

    const read = Case.parse((await t.get(buildPath(routes.getCase.path, { id: caseId }), medic1)).json());
    expect(read.uploads).toEqual([{ id: answer.upload.id, type: 'photo' }]);
    expect(read.mediaCounts.photo).toBe(1);
  });

  it('replays a repeated Idempotency-Key without a second upload; the same key with another file is 409', async () => {
    const caseId = await startCase();
    const key = randomUUID();
    const first = await upload(caseId, 'ekg', media.jpeg, { key });
    const again = await upload(caseId, 'ekg', media.jpeg, { key });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const listed = await list(caseId);
    expect(listed.uploads).toHaveLength(1);
    expect(listed.mediaCounts.ekg).toBe(1);
    expectClientError(await upload(caseId, 'ekg', media.png, { key }), 409);
  });

  it('remuxes an H.264 + Opus MP4 into MP4 with H.264, AAC, yuv420p, moov first, 5 s', async () => {
    const caseId = await startCase();
    const { answer, converted } = await uploadAndConvert(caseId, 'video', media.h264OpusMp4);
    expect(answer.upload.status).toBe('processing');
    expect(converted).toMatchObject({ status: 'ready', fileName: 'video.mp4', contentType: 'video/mp4' });
    const { bytes, info } = await download(converted);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // faststart: the index (moov) comes before the media data, so playback starts before the end arrives.
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(streamOf(info, 'video')).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p' });
    expect(streamOf(info, 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(seconds(info) - 5)).toBeLessThan(0.5);
    expect(Math.abs((converted.durationMs ?? 0) - 5_000)).toBeLessThan(500);
  }, 60_000);

  it('transcodes a VP8 + Opus WebM into MP4 with H.264 and AAC', async () => {
    const caseId = await startCase();
    const { converted } = await uploadAndConvert(caseId, 'video', media.vp8OpusWebm);
    expect(converted.status).toBe('ready');
    const { info } = await download(converted);
    expect(info.format.format_name).toContain('mp4');
    expect(streamOf(info, 'video')).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p' });
    expect(streamOf(info, 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(seconds(info) - 5)).toBeLessThan(0.5);
  }, 60_000);

  it('converts a WebM/Opus voice memo into a 3 s MP3', async () => {
    const caseId = await startCase();
    const { converted } = await uploadAndConvert(caseId, 'voicememo', media.opusWebm);
    expect(converted).toMatchObject({ status: 'ready', fileName: 'voicememo.mp3', contentType: 'audio/mpeg' });
    const { bytes, info } = await download(converted);
    const id3 = bytes.subarray(0, 3).toString('latin1') === 'ID3';
    const frameSync = bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
    expect(id3 || frameSync).toBe(true);
    expect(streamOf(info, 'audio')?.codec_name).toBe('mp3');
    expect(streamOf(info, 'video')).toBeUndefined();
    expect(Math.abs(seconds(info) - 3)).toBeLessThan(0.3);
  }, 60_000);

  it('converts a PNG photo into JPEG', async () => {
    const caseId = await startCase();
    const { converted } = await uploadAndConvert(caseId, 'id', media.png);
    expect(converted).toMatchObject({ status: 'ready', fileName: 'id.jpeg', contentType: 'image/jpeg' });
    const { bytes, info } = await download(converted);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(streamOf(info, 'video')).toMatchObject({ codec_name: 'mjpeg', width: 320, height: 240 });
  }, 60_000);

  it('answers ranges with 206 and Content-Range, a range past the end with 416', async () => {
    const caseId = await startCase();
    const res = await upload(caseId, 'photo', media.jpeg);
    const { url } = MediaUploadResponse.parse(res.json()).upload;
    const size = media.jpeg.length;

    const head = await t.get(url, medic1, { range: 'bytes=0-99' });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-99/${size}`);
    expect(head.headers['content-length']).toBe('100');
    expect(Buffer.compare(head.rawPayload, media.jpeg.subarray(0, 100))).toBe(0);

    const tail = await t.get(url, medic1, { range: 'bytes=-10' });
    expect(tail.statusCode).toBe(206);
    expect(Buffer.compare(tail.rawPayload, media.jpeg.subarray(size - 10))).toBe(0);

    const open = await t.get(url, medic1, { range: `bytes=${size - 5}-` });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload).toHaveLength(5);

    const past = await t.get(url, medic1, { range: `bytes=${size}-${size + 10}` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('refuses content that is not of the type, whatever its name or declared type (415)', async () => {
    const caseId = await startCase();
    const text = Buffer.from('this is not a picture at all, just text');
    const asPhoto = expectClientError(await upload(caseId, 'photo', text, { declared: 'image/jpeg' }), 415);
    expect(asPhoto.message).toContain('JPEG, PNG or WebP');
    expectClientError(await upload(caseId, 'video', media.jpeg, { declared: 'video/mp4' }), 415);
    expectClientError(await upload(caseId, 'voicememo', media.png), 415);
    expect((await list(caseId)).uploads).toHaveLength(0);
  });

  it('refuses an unknown type (400), an empty file (400), a missing key (400), a non-multipart body (415)', async () => {
    const caseId = await startCase();
    expect(expectClientError(await upload(caseId, 'xray', media.jpeg), 400).message).toContain('type must be one of');
    expect(expectClientError(await upload(caseId, 'photo', Buffer.alloc(0)), 400).message).toBe('The file is empty.');
    expectClientError(await upload(caseId, 'photo', media.jpeg, { key: null }), 400);
    const json = await t.app.inject({
      method: 'POST',
      url: uploadsPath(caseId),
      headers: { authorization: authorizationHeader(medic1), 'idempotency-key': randomUUID() },
      payload: { type: 'photo', data: 'abc' },
    });
    expectClientError(json, 415);
    expect((await list(caseId)).uploads).toHaveLength(0);
  });

  it('refuses a file over the type limit with 413 and a message naming the limit', async () => {
    const caseId = await startCase();
    const big = Buffer.alloc(MEDIA_MAX_BYTES.photo + 1);
    media.jpeg.copy(big);
    const error = expectClientError(await upload(caseId, 'photo', big), 413);
    expect(error.message).toBe('The photo file is too large: at most 15 MB.');
    expect((await list(caseId)).uploads).toHaveLength(0);
  });

  it("keeps another crew out (403), an unknown case 404, a closed case 409; the hospital's ED staff may read", async () => {
    const caseId = await startCase();
    const res = await upload(caseId, 'photo', media.jpeg);
    const { url } = MediaUploadResponse.parse(res.json()).upload;

    expectClientError(await upload(caseId, 'photo', media.jpeg, { token: medic2 }), 403);
    expectClientError(await t.get(url, medic2), 403);
    expectClientError(await t.get(uploadsPath(caseId), medic2), 403);
    expectClientError(await upload('no-such-case', 'photo', media.jpeg), 404);

    // ED staff see a case's media once their hospital is its destination, not before.
    expectClientError(await t.get(url, ed1), 403);
    await patchCase(caseId, { destinationHospital: IDS.hospitals.riversideRegional });
    const mediaReads = async () =>
      (
        await t.database.db
          .selectFrom('case_read_audit')
          .select(['user_id', 'hospital_id'])
          .where('case_id', '=', caseId)
          .where('access', '=', 'media')
          .execute()
      ).map((row) => `${row.user_id} ${row.hospital_id}`);
    expect((await t.get(url, medic1)).statusCode).toBe(200);
    expect(await mediaReads(), "the crew's own reads are not hospital reads").toEqual([]);
    expect((await t.get(url, ed1)).statusCode).toBe(200);
    // HIPAA audit: the ED's file read and the link it makes for <img> are recorded like any case read.
    const uploadId = MediaUploadResponse.parse(res.json()).upload.id;
    expect((await t.get(`${uploadsPath(caseId)}/${uploadId}/access`, ed1)).statusCode).toBe(200);
    const edUser = (await t.get('/v4/users/me', ed1)).json<{ id: string }>().id;
    expect(await mediaReads()).toEqual([
      `${edUser} ${IDS.hospitals.riversideRegional}`,
      `${edUser} ${IDS.hospitals.riversideRegional}`,
    ]);
    expect((await list(caseId, ed1)).uploads).toHaveLength(1);
    expectClientError(await upload(caseId, 'photo', media.jpeg, { token: ed1 }), 403);

    await patchCase(caseId, { arrivedAt: new Date().toISOString() });
    expect(expectClientError(await upload(caseId, 'photo', media.jpeg), 409).code).toBe('case_closed');
  });

  it('hands out a short-lived link that loads the file without a token (with ranges), for that file only', async () => {
    const caseId = await startCase();
    const { upload: uploaded } = MediaUploadResponse.parse((await upload(caseId, 'photo', media.jpeg)).json());
    const accessPath = buildPath(routes.mediaAccess.path, { id: caseId, uploadId: uploaded.id });
    expectClientError(await t.get(accessPath, medic2), 403);
    const link = MediaAccessResponse.parse((await t.get(accessPath, medic1)).json());
    expect(link.url.startsWith(`${uploaded.url}?access=`)).toBe(true);
    expect(Date.parse(link.expiresAt) - t.clock.now().getTime()).toBe(MEDIA_ACCESS_TTL_MS);

    const anonymous = await t.app.inject({ method: 'GET', url: link.url, headers: { range: 'bytes=0-9' } });
    expect(anonymous.statusCode).toBe(206);
    expect(Buffer.compare(anonymous.rawPayload, media.jpeg.subarray(0, 10))).toBe(0);
    expectClientError(await t.app.inject({ method: 'GET', url: uploaded.url }), 401);

    const access = new URL(link.url, 'http://x').searchParams.get('access') ?? '';
    const tampered = `${access.slice(0, -1)}${access.endsWith('A') ? 'B' : 'A'}`;
    expectClientError(await t.app.inject({ method: 'GET', url: `${uploaded.url}?access=${tampered}` }), 403);
    const other = await startCase();
    const { upload: otherUpload } = MediaUploadResponse.parse((await upload(other, 'photo', media.jpeg)).json());
    expectClientError(await t.app.inject({ method: 'GET', url: `${otherUpload.url}?access=${access}` }), 403);

    t.clock.advance(MEDIA_ACCESS_TTL_MS + 1_000);
    const expired = expectClientError(await t.app.inject({ method: 'GET', url: link.url }), 403);
    expect(expired.message).toBe('This media link is not valid or has expired; open the media again.');
  });

  it('checks on every fetch that the link holder is still signed in and still sees the case', async () => {
    const caseId = await startCase();
    const { upload: uploaded } = MediaUploadResponse.parse((await upload(caseId, 'photo', media.jpeg)).json());
    const accessPath = buildPath(routes.mediaAccess.path, { id: caseId, uploadId: uploaded.id });
    const session = await t.signIn('medic1');
    const link = MediaAccessResponse.parse((await t.get(accessPath, session)).json());
    expect((await t.app.inject({ method: 'GET', url: link.url })).statusCode).toBe(200);
    expect((await t.post(routes.signOut.path, {}, session)).statusCode).toBe(204);
    // Within the link's lifetime, but its holder signed out.
    const afterSignOut = expectClientError(await t.app.inject({ method: 'GET', url: link.url }), 403);
    expect(afterSignOut.message).toBe('This media link is not valid or has expired; open the media again.');

    // The holder loses access to the case (it was handed to another crew).
    const again = await t.signIn('medic1');
    const second = MediaAccessResponse.parse((await t.get(accessPath, again)).json());
    expect((await t.app.inject({ method: 'GET', url: second.url })).statusCode).toBe(200);
    await t.database.db.deleteFrom('case_access').where('case_id', '=', caseId).execute();
    t.clock.advance(t.config.authCacheMs + 1);
    expectClientError(await t.app.inject({ method: 'GET', url: second.url }), 403);
  });

  it('removes day-old scratch files of a crashed upload at start, and keeps fresh ones', async () => {
    const incoming = path.join(t.config.media.dir, '.incoming');
    mkdirSync(incoming, { recursive: true });
    const stale = path.join(incoming, 'cut-off-upload');
    const fresh = path.join(incoming, 'upload-in-progress');
    writeFileSync(stale, 'partial');
    writeFileSync(fresh, 'partial');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    const restarted = await buildApp(t.config, { database: t.database, clock: t.clock });
    await restarted.close();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('does not serve a file by another name or of another case', async () => {
    const caseId = await startCase();
    const other = await startCase();
    const res = await upload(caseId, 'photo', media.jpeg);
    const { id, url } = MediaUploadResponse.parse(res.json()).upload;
    expectClientError(await t.get(url.replace('photo.jpeg', 'original.jpeg'), medic1), 404);
    expectClientError(await t.get(`/media/twiage-cases/${other}/uploads/${id}/photo.jpeg`, medic1), 404);
  });
});
