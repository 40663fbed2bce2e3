/**
 * The bucket adapter against a small local S3 fake that speaks the four calls it uses and checks each
 * request's AWS Signature V4 by recomputing it (independently of the SDK), so a mis-signed request is
 * refused the way S3 would refuse it. Then the whole media path with the bucket configured.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  buildPath,
  CreateCaseResponse,
  MediaListResponse,
  MediaUploadResponse,
  routes,
} from '@inbound/contract';
import { IDS } from '../../seed/demo-data.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createS3MediaStore, type S3Settings } from './s3-media-store.js';
import { makeTestMedia, probeFile, seconds, streamOf, type TestMedia } from './test-media.js';

const KEY_ID = 'AKIDINBOUNDTEST';
const SECRET = 'inbound-test-secret-key-for-signing';
const REGION = 'eu-central-1';
const BUCKET = 'inbound-media';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Why the request's SigV4 signature is wrong, or null when it is right. */
function signatureProblem(req: IncomingMessage, body: Buffer): string | null {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
  if (!match) return 'no SigV4 Authorization header';
  const [, keyId = '', day = '', region = '', signedHeaders = '', signature = ''] = match;
  if (keyId !== KEY_ID) return 'unknown access key';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(day)) return 'x-amz-date does not match the credential scope';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'payload hash mismatch';
  const url = new URL(req.url ?? '/', 'http://fake');
  const query = [...url.searchParams]
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const headers = signedHeaders
    .split(';')
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, day), region), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature ? null : 'signature mismatch';
}

interface FakeS3 {
  url: string;
  objects: Map<string, Buffer>;
  refused: string[];
  calls: string[];
  close(): Promise<void>;
}

async function startFakeS3(): Promise<FakeS3> {
  const objects = new Map<string, Buffer>();
  const refused: string[] = [];
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const problem = signatureProblem(req, body);
      const fail = (status: number, code: string) => {
        res.writeHead(status, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : `<Error><Code>${code}</Code><Message>${code}</Message></Error>`);
      };
      if (problem) {
        refused.push(`${req.method} ${problem}`);
        return fail(403, 'SignatureDoesNotMatch');
      }
      const pathname = new URL(req.url ?? '/', 'http://fake').pathname;
      if (!pathname.startsWith(`/${BUCKET}/`)) return fail(404, 'NoSuchBucket');
      const key = decodeURIComponent(pathname.slice(BUCKET.length + 2));
      calls.push(`${req.method} ${key}`);
      const stored = objects.get(key);
      switch (req.method) {
        case 'PUT':
          objects.set(key, body);
          res.writeHead(200, { etag: `"${sha256(body).slice(0, 32)}"` });
          return res.end();
        case 'HEAD':
          if (!stored) return fail(404, 'NotFound');
          res.writeHead(200, { 'content-length': stored.length });
          return res.end();
        case 'GET': {
          if (!stored) return fail(404, 'NoSuchKey');
          const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
          if (range) {
            const [start, end] = [Number(range[1]), Math.min(Number(range[2]), stored.length - 1)];
            res.writeHead(206, {
              'content-length': end - start + 1,
              'content-range': `bytes ${start}-${end}/${stored.length}`,
            });
            return res.end(stored.subarray(start, end + 1));
          }
          res.writeHead(200, { 'content-length': stored.length });
          return res.end(stored);
        }
        case 'DELETE':
          objects.delete(key);
          res.writeHead(204);
          return res.end();
        default:
          return fail(405, 'MethodNotAllowed');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    refused,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function text(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('S3 media store', () => {
  let s3: FakeS3;
  let dir: string;
  let settings: S3Settings;

  beforeAll(async () => {
    s3 = await startFakeS3();
    dir = mkdtempSync(path.join(tmpdir(), 'inbound-s3-'));
    settings = {
      bucket: BUCKET,
      region: REGION,
      endpoint: s3.url,
      accessKeyId: KEY_ID,
      secretAccessKey: SECRET,
      forcePathStyle: true,
    };
  });

  afterAll(async () => {
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts, sizes, reads (whole and a range), copies locally and removes, every request signed', async () => {
    const store = createS3MediaStore(settings, path.join(dir, 'scratch'));
    const bytes = Buffer.from(Array.from({ length: 5_000 }, (_, i) => i % 251));
    const local = path.join(dir, 'upload.bin');
    writeFileSync(local, bytes);
    const key = `cases/c1/${randomUUID()}/video.mp4`;

    await store.putFile(key, local);
    expect(existsSync(local)).toBe(false);
    expect(s3.objects.get(key)?.equals(bytes)).toBe(true);
    expect(await store.size(key)).toBe(5_000);
    expect((await text(await store.read(key))).equals(bytes)).toBe(true);
    expect((await text(await store.read(key, { start: 100, end: 199 }))).equals(bytes.subarray(100, 200))).toBe(true);
    const copy = await store.localCopy(key);
    expect(readFileSync(copy.path).equals(bytes)).toBe(true);
    await copy.release();
    expect(existsSync(copy.path)).toBe(false);
    await store.remove(key);
    expect(await store.size(key)).toBeNull();
    expect(s3.refused).toEqual([]);
  });

  it('is refused by the server when it signs with another secret', async () => {
    const store = createS3MediaStore({ ...settings, secretAccessKey: 'not-the-secret' }, path.join(dir, 'scratch'));
    const local = path.join(dir, 'refused.bin');
    writeFileSync(local, 'bytes');
    await expect(store.putFile('cases/c1/x/photo.jpeg', local)).rejects.toThrow();
    expect(s3.refused.at(-1)).toBe('PUT signature mismatch');
    s3.refused.length = 0;
  });

  describe('the media path with a bucket configured', () => {
    let t: TestApp;
    let medic1: string;
    let media: TestMedia;

    beforeAll(async () => {
      [t, media] = await Promise.all([
        createTestApp({
          env: {
            S3_BUCKET: BUCKET,
            S3_REGION: REGION,
            S3_ENDPOINT: s3.url,
            S3_ACCESS_KEY_ID: KEY_ID,
            S3_SECRET_ACCESS_KEY: SECRET,
          },
        }),
        makeTestMedia(dir),
      ]);
      medic1 = await t.signIn('medic1');
    }, 120_000);

    afterAll(() => t.close());

    it('stores the original and the converted MP3 in the bucket and serves ranges from it', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: `/v4/twiageCases?placeholder-${Date.now()}`,
        headers: { authorization: authorizationHeader(medic1), 'idempotency-key': randomUUID() },
        payload: {
          emsAgency: IDS.agencies.riverside,
          truck: 'truck-riverside-medic-1',
          beganAt: new Date().toISOString(),
        },
      });
      const caseId = CreateCaseResponse.parse(created.json()).id;
      const form = new FormData();
      form.append('type', 'voicememo');
      form.append('data', new Blob([media.opusWebm]), 'memo');
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      const res = await t.app.inject({
        method: 'POST',
        url: buildPath(routes.uploadMedia.path, { id: caseId }),
        headers: {
          authorization: authorizationHeader(medic1),
          'idempotency-key': randomUUID(),
          'content-type': request.headers.get('content-type') ?? '',
        },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = MediaUploadResponse.parse(res.json()).upload;
      expect(s3.objects.get(`cases/${caseId}/${id}/original.webm`)?.equals(media.opusWebm)).toBe(true);

      const deadline = Date.now() + 30_000;
      let ready = null;
      while (!ready && Date.now() < deadline) {
        const listed = await t.get(buildPath(routes.listMedia.path, { id: caseId }), medic1);
        ready = MediaListResponse.parse(listed.json()).uploads.find((u) => u.id === id && u.status === 'ready');
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready).toBeTruthy();
      const mp3 = s3.objects.get(`cases/${caseId}/${id}/voicememo.mp3`);
      expect(mp3).toBeDefined();
      const file = path.join(dir, 'from-bucket.mp3');
      writeFileSync(file, (await t.get(ready?.url ?? '', medic1)).rawPayload);
      const info = await probeFile(file);
      expect(streamOf(info, 'audio')?.codec_name).toBe('mp3');
      expect(Math.abs(seconds(info) - 3)).toBeLessThan(0.3);

      const part = await t.get(ready?.url ?? '', medic1, { range: 'bytes=10-19' });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals((mp3 as Buffer).subarray(10, 20))).toBe(true);
      expect(s3.refused).toEqual([]);
    }, 60_000);
  });
});
