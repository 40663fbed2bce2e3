/**
 * Bytes of an upload into a local file: counted (refused as soon as they pass the type's limit, not
 * after the whole body arrived), hashed (the Idempotency-Key's request identity) and their first bytes
 * kept for sniffing. The file is fsynced later, by the media store, once it is known to be wanted.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReceivedFile } from './media.service.js';
import { SNIFF_BYTES } from './sniff.js';

export interface HashedFile extends ReceivedFile {
  sha256: string;
}

export class TooLarge extends Error {
  constructor() {
    super('upload larger than its limit');
  }
}

export async function receiveToFile(source: Readable, dir: string, maxBytes: number): Promise<HashedFile> {
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) return callback(new TooLarge());
      hash.update(chunk);
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(target));
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { path: target, size, head: Buffer.concat(head), sha256: hash.digest('hex') };
}

/** The same facts about a file already on disk (a finished tus upload). */
export async function describeFile(file: string): Promise<HashedFile> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    return { path: file, size, head, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}
