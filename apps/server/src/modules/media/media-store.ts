/**
 * Where media bytes live, behind the few calls the media module makes: files under `DATA_DIR/media`
 * by default, an S3-compatible bucket when configured (s3-media-store.ts).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface ByteRange {
  start: number;
  /** Inclusive, as in an HTTP Range header. */
  end: number;
}

export interface MediaStore {
  /** For the start-up line: where the files go. */
  readonly description: string;
  /**
   * Takes a finished local file under `key`; resolves once the bytes are durable. The file is moved
   * when it can be (same disk), otherwise copied; either way the caller no longer owns it.
   */
  putFile(key: string, localPath: string): Promise<void>;
  /** Size in bytes, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** A local path ffmpeg can read; `release` when done (a bucket adapter deletes its download). */
  localCopy(key: string): Promise<{ path: string; release(): Promise<void> }>;
  remove(key: string): Promise<void>;
}

/** Keys are made by the media module (`cases/{caseId}/{uploadId}/{name}`); anything else is a bug. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

async function fsyncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function createLocalMediaStore(root: string): MediaStore {
  const resolve = (key: string): string => {
    if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new Error(`invalid media key ${JSON.stringify(key)}`);
    }
    return path.join(root, key);
  };

  return {
    description: `files in ${root}`,

    async putFile(key, localPath) {
      const target = resolve(key);
      const dir = path.dirname(target);
      await mkdir(dir, { recursive: true });
      const partial = `${target}.part-${randomBytes(6).toString('hex')}`;
      try {
        await rename(localPath, partial);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(localPath, partial);
        await rm(localPath, { force: true });
      }
      // Data first, then the name, then the directory entry: after a crash the file is whole or absent.
      await fsyncPath(partial);
      await rename(partial, target);
      await fsyncPath(dir);
    },

    async size(key) {
      try {
        return (await stat(resolve(key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async read(key, range) {
      return createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {});
    },

    async localCopy(key) {
      return { path: resolve(key), release: async () => undefined };
    },

    async remove(key) {
      await rm(resolve(key), { force: true });
    },
  };
}
