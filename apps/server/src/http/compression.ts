/**
 * Compresses the API's answers above 1 KB (brotli or gzip, by Accept-Encoding, with `Vary`) — a team,
 * a complaint set or the board is several KB of JSON that a crew fetches over cellular. The built apps'
 * files are not compressed here: they are compressed once at build time and served as they are
 * (static-apps.ts), and the answers serialized once are compressed once (serialized-body.ts). Register
 * before the routes: the plugin attaches itself to each route as it is added; it leaves an answer that
 * already has a Content-Encoding as it is.
 */
import fastifyCompress from '@fastify/compress';
import { constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * Paths whose answers are streamed or already compressed: media files (range requests, video, audio),
 * resumable uploads, the real-time socket and the protocol assistant's streamed answer. A compressor
 * holds a stream's chunks until its buffer fills, which would turn a streamed answer into a late one.
 */
const UNCOMPRESSED_PREFIXES = ['/media', '/realtime', '/questions'];

/** Smaller answers go as they are: the headers and the compressor's framing would eat the gain. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** The encodings answers are compressed with, best first (what `Accept-Encoding` is matched against). */
export const ANSWER_ENCODINGS = ['br', 'gzip'] as const;
export type AnswerEncoding = (typeof ANSWER_ENCODINGS)[number];

export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (UNCOMPRESSED_PREFIXES.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`))) {
      route.compress = false;
    }
  });
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: [...ANSWER_ENCODINGS],
    // Per request, so cheap: quality 4 costs about what gzip does and still beats it on JSON.
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
