/**
 * The media store in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage…), for deployments with
 * several server processes or without a durable local disk. Four calls: PutObject, HeadObject,
 * GetObject (with Range) and DeleteObject. ffmpeg needs a file, so conversion downloads the original
 * into local scratch space first. Checksums are sent only where S3 requires them: many S3-compatible
 * servers refuse the aws-chunked uploads the SDK would otherwise send by default.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { MediaStore } from './media-store.js';

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible server's URL; null for AWS itself. */
  endpoint: string | null;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (what most S3-compatible servers need). */
  forcePathStyle: boolean;
}

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound');

export function createS3MediaStore(settings: S3Settings, scratchDir: string): MediaStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;

  async function body(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const answer = await client.send(
      new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
    );
    if (!(answer.Body instanceof Readable)) throw new Error(`no body for media object ${key}`);
    return answer.Body;
  }

  return {
    description: `bucket ${Bucket}${settings.endpoint ? ` at ${new URL(settings.endpoint).host}` : ''}`,

    async putFile(key, localPath) {
      const { size } = await stat(localPath);
      // S3 answers only once the object is stored durably; the local file is then no longer needed.
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: createReadStream(localPath), ContentLength: size }),
      );
      await rm(localPath, { force: true });
    },

    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    read: (key, range) => body(key, range),

    async localCopy(key) {
      await mkdir(scratchDir, { recursive: true });
      const file = path.join(scratchDir, `download-${randomBytes(8).toString('hex')}`);
      try {
        await pipeline(await body(key), createWriteStream(file));
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      return { path: file, release: () => rm(file, { force: true }) };
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
