import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBodyCache } from './serialized-body.js';

const Item = z.object({ id: z.string(), count: z.number().int() });

describe('serialized body cache', () => {
  it('validates and serializes an answer once, and gives the same body and ETag for the same content', () => {
    const cache = createBodyCache(Item);
    const first = cache.serialize({ id: 'a', count: 1 });
    expect(JSON.parse(first.json)).toEqual({ id: 'a', count: 1 });
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(cache.serialize({ id: 'a', count: 1 })).toBe(first);
    const changed = cache.serialize({ id: 'a', count: 2 });
    expect(changed.etag).not.toBe(first.etag);
  });

  it('answers with what the schema lets out, as the route serializer would', () => {
    const cache = createBodyCache(Item);
    expect(JSON.parse(cache.serialize({ id: 'a', count: 1, secret: 'x' }).json)).toEqual({ id: 'a', count: 1 });
  });

  it('throws for an answer the schema refuses, every time (a refused answer is never kept)', () => {
    const cache = createBodyCache(Item);
    expect(() => cache.serialize({ id: 'a', count: 1.5 })).toThrow();
    expect(() => cache.serialize({ id: 'a', count: 1.5 })).toThrow();
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    const body = createBodyCache(Item).serialize({ id: 'a', count: 1 });
    expect(body.matches(undefined)).toBe(false);
    expect(body.matches('"other"')).toBe(false);
    expect(body.matches(body.etag)).toBe(true);
    expect(body.matches(`"other", W/${body.etag}`)).toBe(true);
    expect(body.matches('*')).toBe(true);
  });

  it('compresses a large body once per encoding the client takes, and a small one or none not at all', () => {
    const List = z.array(Item);
    const big = createBodyCache(List).serialize(Array.from({ length: 100 }, (_, i) => ({ id: `item-${i}`, count: i })));
    const br = big.encodedFor('gzip, deflate, br');
    expect(br?.encoding).toBe('br');
    expect(brotliDecompressSync(br!.data).toString()).toBe(big.json);
    expect(br!.data.length).toBeLessThan(big.json.length / 3);
    // Kept with the body: the next client taking brotli gets the same bytes, not another compression.
    expect(big.encodedFor('br')?.data).toBe(br!.data);
    const gzip = big.encodedFor('br;q=0, gzip');
    expect(gzip?.encoding).toBe('gzip');
    expect(gunzipSync(gzip!.data).toString()).toBe(big.json);
    expect(big.encodedFor(undefined)).toBeNull();
    expect(big.encodedFor('identity')).toBeNull();
    expect(big.encodedFor('deflate')).toBeNull();
    expect(createBodyCache(Item).serialize({ id: 'a', count: 1 }).encodedFor('br')).toBeNull();
  });

  it('forgets the oldest answers beyond its size', () => {
    const cache = createBodyCache(Item, 2);
    const a = cache.serialize({ id: 'a', count: 1 });
    cache.serialize({ id: 'b', count: 1 });
    cache.serialize({ id: 'c', count: 1 });
    const again = cache.serialize({ id: 'a', count: 1 });
    expect(again).not.toBe(a);
    expect(again.etag).toBe(a.etag);
  });
});

describe('serialized body cache with frozen answers', () => {
  it('finds a frozen answer by identity, without reading it again', () => {
    const cache = createBodyCache(Item);
    const answer = Object.freeze({ id: 'a', count: 1 });
    const first = cache.serialize(answer);
    // A getter on a frozen copy would run if the cache stringified it; the identity hit never does.
    let reads = 0;
    const watched = Object.freeze(
      Object.defineProperties(
        {},
        {
          id: {
            enumerable: true,
            get: () => {
              reads += 1;
              return 'a';
            },
          },
          count: { enumerable: true, value: 1 },
        },
      ),
    );
    const second = cache.serialize(watched);
    expect(second).toBe(first); // same content: same body
    const readsAfterFirstSight = reads;
    expect(cache.serialize(watched)).toBe(first);
    expect(reads).toBe(readsAfterFirstSight);
    expect(cache.serialize(answer)).toBe(first);
  });

  it('does not trust the identity of an answer that can still change', () => {
    const cache = createBodyCache(Item);
    const answer = { id: 'a', count: 1 };
    const first = cache.serialize(answer);
    answer.count = 2;
    const second = cache.serialize(answer);
    expect(second).not.toBe(first);
    expect(JSON.parse(second.json)).toEqual({ id: 'a', count: 2 });
  });
});
