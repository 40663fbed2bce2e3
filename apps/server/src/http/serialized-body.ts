/**
 * Answers validated and serialized once. A route's response schema checks every answer on its way out
 * (zod), then it is stringified; for the large reference answers (a team with its hospitals and forms,
 * a complaint set) that was most of the request's CPU, for a body that changes only with an admin edit.
 *
 * The cache is keyed by the answer's own content (its JSON before validation), so it is never stale:
 * the handler still reads the current data every time, and a changed answer is a new key — validated
 * and serialized once, then reused. Output validation is deterministic, so the same input always gives
 * the same checked body. Each body carries a strong ETag; a client sending it back in If-None-Match
 * gets 304 without a body.
 *
 * A frozen answer (a service's deep-frozen, shared object) is also found by identity, which spares even
 * the stringify that makes the key: being frozen, it cannot have changed since it was serialized. Its
 * compressed forms are kept with it too, made on first use.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { z } from 'zod';
import { ANSWER_ENCODINGS, COMPRESS_THRESHOLD_BYTES, type AnswerEncoding } from './compression.js';

/**
 * Brotli's quality for a body compressed once and sent many times: 6 is most of 11's gain for a tenth of
 * its time (a few ms for a 37 KB complaint set, once per version); per-request compression uses 4.
 */
const BROTLI_QUALITY_ONCE = 6;
const encodings = new Negotiator<AnswerEncoding>({ supportedValues: [...ANSWER_ENCODINGS] });

export class SerializedBody {
  readonly #encoded = new Map<AnswerEncoding, Buffer>();

  constructor(
    /** The validated answer, as JSON text. */
    readonly json: string,
    /** A strong entity tag: quoted, from a hash of the text. */
    readonly etag: string,
  ) {}

  /**
   * The body compressed for a client's `Accept-Encoding`, compressed once per encoding and kept with the
   * text (a complaint set cost ~420 µs of brotli per request); null when the client takes none of ours or
   * the body is too small to gain.
   */
  encodedFor(acceptEncoding: string | undefined): { encoding: AnswerEncoding; data: Buffer } | null {
    if (!acceptEncoding || this.json.length < COMPRESS_THRESHOLD_BYTES) return null;
    const encoding = encodings.negotiate(acceptEncoding);
    if (!encoding) return null;
    let data = this.#encoded.get(encoding);
    if (!data) {
      const text = Buffer.from(this.json);
      data =
        encoding === 'br'
          ? brotliCompressSync(text, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY_ONCE,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: text.length,
              },
            })
          : gzipSync(text, { level: zlibConstants.Z_BEST_COMPRESSION });
      this.#encoded.set(encoding, data);
    }
    return { encoding, data };
  }

  /** Whether an If-None-Match header names this body (or any body: `*`). */
  matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === this.etag);
  }
}

export interface BodyCache {
  /** The answer validated against the schema and serialized — from the cache when seen before. */
  serialize(answer: unknown): SerializedBody;
}

/** Keeps the last `maxEntries` distinct answers of one route (the oldest go first). */
export function createBodyCache(schema: z.ZodType, maxEntries = 256): BodyCache {
  const bodies = new Map<string, SerializedBody>();
  const frozenAnswers = new WeakMap<object, SerializedBody>();
  return {
    serialize(answer) {
      const shared = typeof answer === 'object' && answer !== null && Object.isFrozen(answer);
      if (shared) {
        const known = frozenAnswers.get(answer);
        if (known) return known;
      }
      const key = JSON.stringify(answer);
      const cached = bodies.get(key);
      if (cached) {
        if (shared) frozenAnswers.set(answer, cached);
        return cached;
      }
      // A schema violation throws here, as the route's serializer would: a 500, never an unchecked body.
      const json = JSON.stringify(schema.parse(answer));
      const body = new SerializedBody(json, `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`);
      if (bodies.size >= maxEntries) bodies.delete(bodies.keys().next().value!);
      bodies.set(key, body);
      if (shared) frozenAnswers.set(answer, body);
      return body;
    },
  };
}
