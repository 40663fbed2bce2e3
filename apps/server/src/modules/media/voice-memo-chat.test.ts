// Voice memo as chat (issue 6 item 4): a voicememo upload with `chatLength` — multipart field or tus
// metadata — also records one VOICE_MEMO chat message (mediaId = the upload, length) in the same case
// write, published on the case channel; a replay of the upload records neither again.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  CHAT_SOURCE,
  ChatMessagesResponse,
  CreateCaseResponse,
  MEDIA_TUS_PATH,
  MediaListResponse,
  MediaUploadResponse,
  mediaMessages,
  routes,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import { published } from '../../test/crew-api.js';
import { makeTestMedia, type TestMedia } from './test-media.js';

describe('voice memo posted in the chat with its upload', () => {
  let t: TestApp;
  let base: string;
  let medic1: string;
  let media: TestMedia;
  let workDir: string;

  async function multipart(fields: [string, string | Buffer][]) {
    const form = new FormData();
    for (const [name, value] of fields) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, new Blob([value]), 'voicememo.mp3');
    }
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
  }

  async function upload(caseId: string, fields: [string, string | Buffer][], key = randomUUID()) {
    const { body, contentType } = await multipart(fields);
    return t.app.inject({
      method: 'POST',
      url: buildPath(routes.uploadMedia.path, { id: caseId }),
      headers: {
        authorization: authorizationHeader(medic1),
        'content-type': contentType,
        'idempotency-key': key,
        'created-at': '2026-11-21T23:04:00.000Z',
      },
      payload: body,
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
    expect(res.statusCode, res.body).toBe(201);
    return CreateCaseResponse.parse(res.json()).id;
  }

  async function chat(caseId: string) {
    const res = await t.get(buildPath(routes.chatMessages.path, { id: caseId }), medic1);
    expect(res.statusCode, res.body).toBe(200);
    return ChatMessagesResponse.parse(res.json()).messages;
  }

  async function uploads(caseId: string) {
    const res = await t.get(buildPath(routes.listMedia.path, { id: caseId }), medic1);
    return MediaListResponse.parse(res.json()).uploads;
  }

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'inbound-voicememo-test-'));
    [t, media] = await Promise.all([createTestApp(), makeTestMedia(workDir)]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    medic1 = await t.signIn('medic1');
  }, 120_000);

  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('records one VOICE_MEMO message with the upload (multipart), published; a replay records nothing more', async () => {
    const caseId = await startCase();
    const key = randomUUID();
    const fields: [string, string | Buffer][] = [
      ['type', 'voicememo'],
      ['chatLength', '3'],
      ['data', media.opusWebm],
    ];
    const first = await upload(caseId, fields, key);
    expect(first.statusCode, first.body).toBe(201);
    const answer = MediaUploadResponse.parse(first.json());
    expect(answer.chatMessage).toMatchObject({
      caseId,
      type: 'VOICE_MEMO',
      mediaId: answer.upload.id,
      length: 3,
      content: '',
      source: CHAT_SOURCE,
      state: 'sent',
      senderOrganization: expect.any(String) as string,
      clientCreatedAt: '2026-11-21T23:04:00.000Z',
    });
    expect(answer.chatMessage?.senderOrganization).not.toBe('');

    const messages = await chat(caseId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ _id: answer.chatMessage?._id, type: 'VOICE_MEMO', mediaId: answer.upload.id });
    const events = await published(t, `case:${caseId}`, 'chat.message');
    expect(events.map((e) => (e.data as { _id: string })._id)).toEqual([answer.chatMessage?._id]);

    // The answer was lost; the outbox sends the same upload again with the same key.
    const replay = await upload(caseId, fields, key);
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(MediaUploadResponse.parse(replay.json()).chatMessage?._id).toBe(answer.chatMessage?._id);
    expect(await chat(caseId)).toHaveLength(1);
    expect(await uploads(caseId)).toHaveLength(1);
    expect(await published(t, `case:${caseId}`, 'chat.message')).toHaveLength(1);

    // The same key with another length is another request: refused, not replayed.
    const other = await upload(
      caseId,
      [
        ['type', 'voicememo'],
        ['chatLength', '4'],
        ['data', media.opusWebm],
      ],
      key,
    );
    expectClientError(other, 409);
  }, 60_000);

  it('keeps a voice memo without chatLength out of the chat', async () => {
    const caseId = await startCase();
    const res = await upload(caseId, [
      ['type', 'voicememo'],
      ['data', media.opusWebm],
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(MediaUploadResponse.parse(res.json()).chatMessage).toBeUndefined();
    expect(await chat(caseId)).toHaveLength(0);
  });

  it('refuses chatLength on another type, or not a positive number of seconds (400), recording nothing', async () => {
    const caseId = await startCase();
    const photo = await upload(caseId, [
      ['type', 'photo'],
      ['chatLength', '3'],
      ['data', media.jpeg],
    ]);
    expect(expectClientError(photo, 400).message).toBe(mediaMessages.chatLengthNotVoiceMemo);
    for (const bad of ['0', '-2', 'three', '601']) {
      const res = await upload(caseId, [
        ['type', 'voicememo'],
        ['chatLength', bad],
        ['data', media.opusWebm],
      ]);
      expect(expectClientError(res, 400).message).toMatch(/chatLength/);
    }
    expect(await uploads(caseId)).toHaveLength(0);
    expect(await chat(caseId)).toHaveLength(0);
  });

  it('does the same for a tus upload carrying chatLength in its metadata', async () => {
    const caseId = await startCase();
    const meta = (fields: Record<string, string>) =>
      Object.entries(fields)
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(',');
    const headers = { authorization: authorizationHeader(medic1), 'tus-resumable': '1.0.0' };
    const key = randomUUID();
    const send = async () => {
      const created = await fetch(`${base}${MEDIA_TUS_PATH}`, {
        method: 'POST',
        headers: {
          ...headers,
          'upload-length': String(media.opusWebm.length),
          'upload-metadata': meta({ caseId, type: 'voicememo', idempotencyKey: key, chatLength: '3' }),
        },
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const done = await fetch(`${base}${created.headers.get('location') ?? ''}`, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: media.opusWebm,
      });
      expect(done.status).toBe(200);
      return MediaUploadResponse.parse(await done.json());
    };
    const answer = await send();
    expect(answer.chatMessage).toMatchObject({ type: 'VOICE_MEMO', mediaId: answer.upload.id, length: 3 });
    expect((await send()).chatMessage?._id).toBe(answer.chatMessage?._id);
    expect(await chat(caseId)).toHaveLength(1);

    const refused = await fetch(`${base}${MEDIA_TUS_PATH}`, {
      method: 'POST',
      headers: {
        ...headers,
        'upload-length': '10',
        'upload-metadata': meta({ caseId, type: 'photo', idempotencyKey: randomUUID(), chatLength: '3' }),
      },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(/chatLength/);
  }, 60_000);
});
