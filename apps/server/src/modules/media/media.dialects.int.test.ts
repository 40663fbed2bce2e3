/**
 * The media repository on both databases, through the API: an upload recorded with its case event,
 * counted, replayed, converted — and an upload left `processing` by a stopped server converted by the
 * next one (the queue re-reads pending uploads at start).
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  Case,
  CreateCaseResponse,
  MediaListResponse,
  MediaUploadResponse,
  routes,
  type MediaStatus,
} from '@inbound/contract';
import { buildApp } from '../../app.js';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { testDialects } from '../../test/databases.js';
import { makeTestMedia, type TestMedia } from './test-media.js';

const dialects = await testDialects();

describe.each(dialects)('media on %s', (dialect) => {
  let t: TestApp;
  let medic1: string;
  let media: TestMedia;
  let workDir: string;
  let stuckProbe: string;

  async function multipartUpload(
    app: FastifyInstance,
    caseId: string,
    type: string,
    data: Buffer,
    key: string,
    chatLength?: string,
  ) {
    const form = new FormData();
    form.append('type', type);
    if (chatLength !== undefined) form.append('chatLength', chatLength);
    form.append('data', new Blob([data]), 'file');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    return app.inject({
      method: 'POST',
      url: buildPath(routes.uploadMedia.path, { id: caseId }),
      headers: {
        authorization: authorizationHeader(medic1),
        'idempotency-key': key,
        'content-type': request.headers.get('content-type') ?? '',
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }

  async function startCase(app: FastifyInstance): Promise<string> {
    const res = await app.inject({
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

  async function statusOf(app: FastifyInstance, caseId: string, uploadId: string, until?: MediaStatus) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await app.inject({
        method: 'GET',
        url: buildPath(routes.listMedia.path, { id: caseId }),
        headers: { authorization: authorizationHeader(medic1) },
      });
      const status = MediaListResponse.parse(res.json()).uploads.find((u) => u.id === uploadId)?.status;
      if (!until || status === until || Date.now() > deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'inbound-media-dialect-'));
    // An ffprobe that never answers: the first server stops with the conversion still running.
    stuckProbe = path.join(workDir, 'stuck-ffprobe');
    writeFileSync(stuckProbe, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(stuckProbe, 0o755);
    [t, media] = await Promise.all([
      createTestApp({ dialect, env: { FFPROBE_PATH: stuckProbe } }),
      makeTestMedia(workDir),
    ]);
    medic1 = await t.signIn('medic1');
  }, 120_000);

  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('records, counts and replays uploads', async () => {
    const caseId = await startCase(t.app);
    const key = randomUUID();
    const first = await multipartUpload(t.app, caseId, 'photo', media.jpeg, key);
    expect(first.statusCode, first.body).toBe(201);
    const replay = await multipartUpload(t.app, caseId, 'photo', media.jpeg, key);
    expect(replay.json()).toEqual(first.json());
    const second = await multipartUpload(t.app, caseId, 'ekg', media.jpeg, randomUUID());
    expect(MediaUploadResponse.parse(second.json()).mediaCounts).toEqual({
      photo: 1,
      id: 0,
      ekg: 1,
      video: 0,
      voicememo: 0,
    });
    const read = Case.parse((await t.get(buildPath(routes.getCase.path, { id: caseId }), medic1)).json());
    expect(read.mediaCounts).toMatchObject({ photo: 1, ekg: 1 });
    expect(read.uploads.map((u) => u.type)).toEqual(['photo', 'ekg']);
  });

  it('records a voice memo and its VOICE_MEMO chat message in one write, once', async () => {
    const caseId = await startCase(t.app);
    const key = randomUUID();
    const first = await multipartUpload(t.app, caseId, 'voicememo', media.opusWebm, key, '3');
    expect(first.statusCode, first.body).toBe(201);
    const answer = MediaUploadResponse.parse(first.json());
    expect(answer.chatMessage).toMatchObject({ type: 'VOICE_MEMO', mediaId: answer.upload.id, length: 3 });
    const replay = await multipartUpload(t.app, caseId, 'voicememo', media.opusWebm, key, '3');
    expect(MediaUploadResponse.parse(replay.json()).chatMessage?._id).toBe(answer.chatMessage?._id);
    const rows = await t.database.db
      .selectFrom('chat_messages')
      .select(['type', 'media_id', 'length', 'seq'])
      .where('case_id', '=', caseId)
      .execute();
    expect(rows.map((row) => ({ ...row, length: Number(row.length), seq: Number(row.seq) }))).toEqual([
      { type: 'VOICE_MEMO', media_id: answer.upload.id, length: 3, seq: 1 },
    ]);
  });

  it('converts after a restart what the stopped server left processing', async () => {
    const caseId = await startCase(t.app);
    const res = await multipartUpload(t.app, caseId, 'voicememo', media.opusWebm, randomUUID());
    expect(res.statusCode, res.body).toBe(201);
    const uploadId = MediaUploadResponse.parse(res.json()).upload.id;
    await t.app.close();
    const left = await t.database.db
      .selectFrom('case_media')
      .select('status')
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    expect(left.status).toBe('processing');

    const next = await buildApp(
      { ...t.config, media: { ...t.config.media, ffprobe: 'ffprobe' } },
      { database: t.database, clock: t.clock },
    );
    try {
      expect(await statusOf(next, caseId, uploadId, 'ready')).toBe('ready');
    } finally {
      await next.close();
    }
  }, 60_000);
});
