import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@inbound/contract';
import { createTestApp, type TestApp } from '../test/app.js';

// Issue 16, item 11: a crew's first load and its JSON reads travel compressed over cellular.
describe('compressed answers', () => {
  let t: TestApp;
  let dist: string;
  let medic2: string;
  const script = `console.log(${JSON.stringify('inbound '.repeat(2000))});`;

  beforeAll(async () => {
    // A build as vite.config.ts leaves it: each text file with its .br and .gz beside it.
    dist = mkdtempSync(path.join(tmpdir(), 'inbound-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Inbound</title>');
    const file = path.join(dist, 'assets', 'index-abc123.js');
    writeFileSync(file, script);
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    writeFileSync(`${file}.gz`, gzipSync(script));
    t = await createTestApp({ env: { CREW_DIST: dist } });
    medic2 = await t.signIn('medic2');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const getScript = (acceptEncoding?: string) =>
    t.get('/assets/index-abc123.js', null, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});

  it("serves a built file's brotli copy to a browser that takes it, and says it varies by encoding", async () => {
    const res = await getScript('gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('serves the gzip copy when brotli is not offered, and the plain file when nothing is', async () => {
    const gzip = await getScript('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await getScript();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses a JSON answer above 1 KB (the complaint set), not a small one', async () => {
    const url = `${routes.complaintSets.path}?name=${encodeURIComponent('Standard ALS/BLS 2026')}&firstOccurrenceOnly=true`;
    const res = await t.get(url, medic2, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    const json = brotliDecompressSync(res.rawPayload).toString();
    expect(res.rawPayload.length).toBeLessThan(json.length / 3);
    expect(JSON.parse(json)).toHaveLength(1);
    // The next answer is the same bytes (kept with the body: serialized-body.test.ts); gzip for a client
    // without brotli; the plain JSON for one that takes neither, and 304 without a body for a known ETag.
    const again = await t.get(url, medic2, { 'accept-encoding': 'br' });
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(again.headers.etag).toBe(res.headers.etag);
    const gzip = await t.get(url, medic2, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(json);
    const plain = await t.get(url, medic2);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(json);
    const notModified = await t.get(url, medic2, {
      'accept-encoding': 'br',
      'if-none-match': String(res.headers.etag),
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);

    const small = await t.get('/health', null, { 'accept-encoding': 'br, gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
