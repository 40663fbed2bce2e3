import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplaintSetsResponse, routes } from '@inbound/contract';
import { createTestApp, expectClientError, type TestApp } from '../../test/app.js';

const setPath = (name: string, firstOnly = true) =>
  `${routes.complaintSets.path}?name=${encodeURIComponent(name)}${firstOnly ? '&firstOccurrenceOnly=true' : ''}`;

describe('complaints routes', () => {
  let t: TestApp;
  let medic1: string;
  let medic2: string;
  beforeAll(async () => {
    t = await createTestApp();
    medic1 = await t.signIn('medic1');
    medic2 = await t.signIn('medic2');
  });
  afterAll(() => t.close());

  it('requires authentication', async () => {
    expectClientError(await t.get(setPath('Standard ALS/BLS 2026')), 401);
  });

  it("answers the team's set, newest version first; firstOccurrenceOnly gives just the newest", async () => {
    const all = ComplaintSetsResponse.parse((await t.get(setPath('Standard ALS/BLS 2026', false), medic2)).json());
    expect(all.map((s) => s.version)).toEqual([2, 1]);
    const newest = ComplaintSetsResponse.parse((await t.get(setPath('Standard ALS/BLS 2026'), medic2)).json());
    expect(newest).toHaveLength(1);
    expect(newest[0]!.version).toBe(2);
    expect(newest[0]!.complaints.length).toBeGreaterThanOrEqual(12);
    const stroke = newest[0]!.complaints.find((c) => c.name === 'Stroke')!;
    expect(stroke.nemsisPreArrivalAlert).toBe('4224015');
    expect(stroke.priority).toBe(1);
  });

  it('sends the set with an ETag, and 304 without a body when the client already has it', async () => {
    const first = await t.get(setPath('Standard ALS/BLS 2026'), medic2);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.get(setPath('Standard ALS/BLS 2026'), medic2);
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toBe(first.body);
    const notModified = await t.get(setPath('Standard ALS/BLS 2026'), medic2, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    // Another answer has another tag: an old tag gets the full body.
    const both = await t.get(setPath('Standard ALS/BLS 2026', false), medic2, { 'if-none-match': etag });
    expect(both.statusCode).toBe(200);
    expect(both.headers.etag).not.toBe(etag);
    expect(ComplaintSetsResponse.parse(both.json())).toHaveLength(2);
    // Access is still checked on every request, cached body or not.
    expectClientError(await t.get(setPath('Standard ALS/BLS 2026'), null, { 'if-none-match': etag }), 401);
  });

  it('refuses a set only other teams use with 403, an unknown name with 404, a missing name with 400', async () => {
    expectClientError(await t.get(setPath('Hilltop BLS 2026'), medic2), 403);
    expect((await t.get(setPath('Hilltop BLS 2026'), medic1)).statusCode).toBe(200);
    expectClientError(await t.get(setPath('No Such Set'), medic1), 404);
    expect(expectClientError(await t.get(routes.complaintSets.path, medic1), 400).message).toMatch(/query\.name/);
    expectClientError(await t.get(`${setPath('Standard ALS/BLS 2026', false)}&firstOccurrenceOnly=maybe`, medic1), 400);
    expectClientError(await t.get(setPath('n'.repeat(5000)), medic1), 400);
  });
});
