/**
 * Issue 12: a recorded call's recording, uploaded by the console that answered it through the media
 * path (who may, what is refused, what the crew sees), and connected calls whose browsers vanished.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminHospital,
  authorizationHeader,
  buildPath,
  CALL_ALIVE_TIMEOUT_MS,
  CallChanged,
  CallResponse,
  Case,
  FEATURE,
  MediaListResponse,
  MediaUploadResponse,
  mediaMessages,
  routes,
  type MediaUpload,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';
import {
  addUser,
  LAKESIDE_TRUCK,
  RIVERSIDE_TRUCK,
  send,
  setDestination,
  signInAll,
  startCase,
} from '../../test/crew-api.js';
import { makeTestMedia, probeFile, seconds, streamOf, type TestMedia } from '../media/test-media.js';

const RIVERSIDE = IDS.hospitals.riversideRegional;
const ST_MARYS = IDS.hospitals.stMarys;

/** A multipart body as the console's FormData makes it (fields in the order given). */
async function multipart(fields: [string, string | Buffer][]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value], { type: 'audio/webm' }), 'call.webm');
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

describe('call recordings and abandoned calls', () => {
  let t: TestApp;
  let media: TestMedia;
  let workDir: string;
  let medic1: string;
  let medic3: string;
  let ed1: string;
  let ed2: string;
  let edStMarys: string;
  let admin: string;
  let caseId: string;

  const uploadsPath = (id: string) => buildPath(routes.uploadMedia.path, { id });

  function upload(
    token: string | null,
    fields: [string, string | Buffer][],
    options: { id?: string; key?: string } = {},
  ) {
    return multipart(fields).then(({ body, contentType }) => {
      const headers: Record<string, string> = {
        'content-type': contentType,
        'idempotency-key': options.key ?? randomUUID(),
        'created-at': new Date().toISOString(),
      };
      if (token) headers.authorization = authorizationHeader(token);
      return t.app.inject({ method: 'POST', url: uploadsPath(options.id ?? caseId), headers, payload: body });
    });
  }
  const recording = (callId: string, data: Buffer = media.opusWebm): [string, string | Buffer][] => [
    ['type', 'callrecording'],
    ['callId', callId],
    ['data', data],
  ];

  /** The crew calls, `answerer` takes it, they talk `ms`, the ED hangs up: the call. */
  async function call(answerer: string, ms = 3_000, id = caseId) {
    const started = CallResponse.parse(
      (await send(t, 'POST', routes.startCall.path, medic1, { body: { caseId: id } })).json(),
    );
    const answered = await send(t, 'POST', buildPath(routes.answerCall.path, { callId: started.call.id }), answerer);
    expect(answered.statusCode, answered.body).toBe(200);
    t.clock.advance(ms);
    const ended = await send(t, 'POST', buildPath(routes.endCall.path, { callId: started.call.id }), answerer, {
      body: { reason: 'hangup' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    return CallChanged.parse(ended.json()).call;
  }

  async function setRecording(on: boolean) {
    const path = buildPath(routes.adminHospital.path, { id: RIVERSIDE });
    const current = AdminHospital.parse((await send(t, 'GET', path, admin, { key: null })).json());
    const supportedFeatures = current.supportedFeatures.map((f) =>
      f.name === FEATURE.allowsToRecord ? { ...f, enabled: on } : f,
    );
    const res = await send(t, 'PATCH', path, admin, { body: { supportedFeatures } });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function list(token: string) {
    const res = await t.get(uploadsPath(caseId), token);
    expect(res.statusCode, res.body).toBe(200);
    return MediaListResponse.parse(res.json());
  }

  async function whenConverted(uploadId: string): Promise<MediaUpload> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = (await list(ed1)).uploads.find((u) => u.id === uploadId);
      if (found && found.status !== 'processing') return found;
      if (Date.now() > deadline) throw new Error(`recording ${uploadId} still processing`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'inbound-callrec-test-'));
    [t, media] = await Promise.all([createTestApp(), makeTestMedia(workDir)]);
    await addUser(t, 'ed2', { roles: ['edStaff'], edStaffOf: [RIVERSIDE] });
    await addUser(t, 'edstmarys', { roles: ['edStaff'], edStaffOf: [ST_MARYS] });
    [medic1, medic3, ed1, ed2, edStMarys, admin] = await signInAll(t, [
      'medic1',
      'medic3',
      'ed1',
      'ed2',
      'edstmarys',
      'admin',
    ]);
    caseId = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, caseId, RIVERSIDE);
  }, 120_000);

  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('refuses a recording of a call its department does not record (409)', async () => {
    const unrecorded = await call(ed1);
    expect(unrecorded.recording).toBe(false);
    const res = await upload(ed1, recording(unrecorded.id));
    expect(expectClientError(res, 409).message).toBe(mediaMessages.callNotRecorded);
  });

  it('takes the recording from the ED staff member who answered, once; the ED plays it, the crew does not count it', async () => {
    await setRecording(true);
    const recorded = await call(ed1, 3_000);
    expect(recorded.recording).toBe(true);

    const key = randomUUID();
    const res = await upload(ed1, recording(recorded.id), { key });
    expect(res.statusCode, res.body).toBe(201);
    const answer = MediaUploadResponse.parse(res.json());
    expect(answer.upload).toMatchObject({ type: 'callrecording', callId: recorded.id, fileName: 'callrecording.mp3' });
    expect(answer.event.type).toBe('callrecording');
    // Not one of the crew's media counts (spec §3 counts photo, id, ekg, video, voice memo).
    expect(answer.mediaCounts).toEqual({ photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0 });
    const events = await t.database.db
      .selectFrom('case_events')
      .selectAll()
      .where('case_id', '=', caseId)
      .where('type', '=', 'callrecording')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.actor_user_id).toBe(IDS.users.ed1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ callId: recorded.id, uploadId: answer.upload.id });

    // Replayed with its key: the first answer, nothing recorded twice; another upload for the call: 409.
    const replay = await upload(ed1, recording(recorded.id), { key });
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(expectClientError(await upload(ed1, recording(recorded.id)), 409).message).toBe(
      mediaMessages.alreadyRecorded,
    );

    // Converted to MP3 and served to the ED with its length; the crew neither lists nor plays it.
    const converted = await whenConverted(answer.upload.id);
    expect(converted.status).toBe('ready');
    expect(converted.contentType).toBe('audio/mpeg');
    expect(converted.durationMs).toBeGreaterThan(2_500);
    expect(converted.durationMs).toBeLessThan(3_500);
    const file = await t.get(converted.url, ed1);
    expect(file.statusCode).toBe(200);
    const mp3 = path.join(workDir, 'call.mp3');
    writeFileSync(mp3, file.rawPayload);
    const info = await probeFile(mp3);
    expect(streamOf(info, 'audio')?.codec_name).toBe('mp3');
    expect(seconds(info)).toBeCloseTo(3, 0);
    const ranged = await t.app.inject({
      method: 'GET',
      url: converted.url,
      headers: { authorization: authorizationHeader(ed1), range: 'bytes=0-99' },
    });
    expect(ranged.statusCode).toBe(206);

    const crewList = await list(medic1);
    expect(crewList.uploads.map((u) => u.type)).not.toContain('callrecording');
    expect(expectClientError(await t.get(converted.url, medic1), 403).message).toBe(mediaMessages.recordingForEdOnly);
    const access = buildPath(routes.mediaAccess.path, { id: caseId, uploadId: converted.id });
    expectClientError(await t.get(access, medic1), 403);
    expect((await t.get(access, ed1)).statusCode).toBe(200);
    const read = Case.parse((await t.get(buildPath(routes.getCase.path, { id: caseId }), medic1)).json());
    expect(read.uploads.map((u) => u.type)).not.toContain('callrecording');
    expect(read.mediaCounts).toEqual({ photo: 0, id: 0, ekg: 0, video: 0, voicememo: 0 });
  });

  it('marks a recording its console sent after closing mid-call as partial (decision 0042); refuses partial elsewhere', async () => {
    await setRecording(true);
    const recorded = await call(ed1, 3_000);
    const key = randomUUID();
    const fields: [string, string | Buffer][] = [
      ['type', 'callrecording'],
      ['callId', recorded.id],
      ['partial', 'true'],
      ['data', media.opusWebm],
    ];
    const res = await upload(ed1, fields, { key });
    expect(res.statusCode, res.body).toBe(201);
    const answer = MediaUploadResponse.parse(res.json());
    expect(answer.upload).toMatchObject({ callId: recorded.id, partial: true });
    const [event] = await t.database.db
      .selectFrom('case_events')
      .selectAll()
      .where('id', '=', answer.event.id)
      .execute();
    expect(JSON.parse(event!.payload)).toMatchObject({ callId: recorded.id, partial: true });
    expect((await list(ed1)).uploads.find((u) => u.id === answer.upload.id)?.partial).toBe(true);
    // The next start sends it again with the same key: the first answer, nothing twice.
    const again = await upload(ed1, fields, { key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(MediaUploadResponse.parse(again.json()).upload.id).toBe(answer.upload.id);
    // A whole recording says nothing of it.
    const whole = await call(ed1, 1_000);
    const wholeAnswer = MediaUploadResponse.parse((await upload(ed1, recording(whole.id))).json());
    expect(wholeAnswer.upload.partial).toBeUndefined();

    const later = await call(ed1, 1_000);
    const badValue = await upload(ed1, [
      ['type', 'callrecording'],
      ['callId', later.id],
      ['partial', 'yes'],
      ['data', media.opusWebm],
    ]);
    expect(expectClientError(badValue, 400).message).toBe(mediaMessages.partialValue);
    const photo = await upload(medic1, [
      ['type', 'photo'],
      ['partial', 'true'],
      ['data', media.jpeg],
    ]);
    expect(expectClientError(photo, 400).message).toBe(mediaMessages.partialNotRecording);
  });

  it('refuses everyone but the answerer, before reading the file', async () => {
    const recorded = await call(ed1);
    // No token; a crew of another agency; another hospital's ED; the same ED's other staff; the case's crew.
    expectClientError(await upload(null, recording(recorded.id)), 401);
    expectClientError(await upload(medic3, recording(recorded.id)), 403);
    expectClientError(await upload(edStMarys, recording(recorded.id)), 403);
    expect(expectClientError(await upload(ed2, recording(recorded.id)), 403).message).toBe(
      mediaMessages.recordingByAnswerer,
    );
    expect(expectClientError(await upload(medic1, recording(recorded.id)), 403).message).toBe(
      mediaMessages.recordingNotForCrew,
    );
    // ED staff send nothing else.
    const photo = await upload(ed1, [
      ['type', 'photo'],
      ['data', media.jpeg],
    ]);
    expect(expectClientError(photo, 403).message).toBe(mediaMessages.hospitalUploadsRecordingsOnly);
    // A crew of another agency with a case of its own cannot attach this call to it.
    const theirs = (await startCase(t, medic3, IDS.agencies.lakeside, LAKESIDE_TRUCK)).id;
    expectClientError(await upload(medic3, recording(recorded.id), { id: theirs }), 403);
    // Still nothing recorded for the call: the answerer's upload goes through.
    expect((await upload(ed1, recording(recorded.id))).statusCode).toBe(201);
  });

  it('refuses bad input with a 4xx naming the problem', async () => {
    const recorded = await call(ed1);
    const noCall = await upload(ed1, [
      ['type', 'callrecording'],
      ['data', media.opusWebm],
    ]);
    expect(expectClientError(noCall, 400).message).toBe(mediaMessages.callIdMissing);
    const callLate = await upload(ed1, [
      ['type', 'callrecording'],
      ['data', media.opusWebm],
      ['callId', recorded.id],
    ]);
    expectClientError(callLate, 400);
    expect(expectClientError(await upload(ed1, recording('x'.repeat(65))), 400).message).toMatch(/callId/);
    expectClientError(await upload(ed1, recording('no-such-call')), 404);
    // A call of another case named on this one: not found here.
    const other = (await startCase(t, medic1, IDS.agencies.riverside, RIVERSIDE_TRUCK)).id;
    await setDestination(t, medic1, other, RIVERSIDE);
    const elsewhere = await call(ed1, 1_000, other);
    expectClientError(await upload(ed1, recording(elsewhere.id)), 404);
    // Not audio: 415; empty: 400; callId on a crew's photo: 400.
    expectClientError(await upload(ed1, recording(recorded.id, media.jpeg)), 415);
    expect(expectClientError(await upload(ed1, recording(recorded.id, Buffer.alloc(0))), 400).message).toBe(
      mediaMessages.empty,
    );
    const photoWithCall = await upload(medic1, [
      ['type', 'photo'],
      ['callId', recorded.id],
      ['data', media.jpeg],
    ]);
    expect(expectClientError(photoWithCall, 400).message).toBe(mediaMessages.callIdNotRecording);
    // Over tus: refused (a recording is multipart).
    const tus = await t.app.inject({
      method: 'POST',
      url: '/media/uploads',
      headers: {
        authorization: authorizationHeader(ed1),
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': [
          `caseId ${Buffer.from(caseId).toString('base64')}`,
          `type ${Buffer.from('callrecording').toString('base64')}`,
          `idempotencyKey ${Buffer.from(randomUUID()).toString('base64')}`,
        ].join(','),
      },
    });
    expect(tus.statusCode).toBe(400);
  });

  it('ends a connected call whose two browsers went silent, as lost, with its case event', async () => {
    const started = CallResponse.parse(
      (await send(t, 'POST', routes.startCall.path, medic1, { body: { caseId } })).json(),
    ).call;
    const callPath = buildPath(routes.getCall.path, { callId: started.id });
    const alivePath = buildPath(routes.callAlive.path, { callId: started.id });
    expect((await send(t, 'POST', buildPath(routes.answerCall.path, { callId: started.id }), ed1)).statusCode).toBe(
      200,
    );

    // Kept alive by either party: it stays connected past the timeout.
    expectClientError(await send(t, 'POST', alivePath, ed2), 403);
    expectClientError(await send(t, 'POST', alivePath, null), 401);
    for (let i = 0; i < 6; i += 1) {
      t.clock.advance(10_000);
      expect((await send(t, 'POST', alivePath, i % 2 ? medic1 : ed1)).statusCode).toBe(204);
    }
    expect(await t.app.callSweep()).toBe(0);
    expect(CallChanged.parse((await t.get(callPath, ed1)).json()).call.state).toBe('connected');

    // Both gone: the server's sweep ends it as lost, once, with its `call` case event.
    t.clock.advance(CALL_ALIVE_TIMEOUT_MS);
    expect(await t.app.callSweep()).toBe(1);
    expect(await t.app.callSweep()).toBe(0);
    expect(CallChanged.parse((await t.get(callPath, ed1)).json()).call).toMatchObject({
      state: 'ended',
      outcome: 'lost',
    });
    const events = await t.database.db
      .selectFrom('case_events')
      .select('payload')
      .where('case_id', '=', caseId)
      .where('type', '=', 'call')
      .execute();
    expect(events.map((e) => JSON.parse(e.payload) as { callId: string; outcome: string })).toContainEqual(
      expect.objectContaining({ callId: started.id, outcome: 'lost', durationSeconds: 105 }),
    );
    expect(expectClientError(await send(t, 'POST', alivePath, ed1), 409).message).toMatch(/ended/);
  });
});
