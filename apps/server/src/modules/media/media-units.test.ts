import { describe, expect, it } from 'vitest';
import { parseRange } from './byte-range.js';
import { createJobQueue } from './conversion-queue.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { conversionArgs, convert, MEDIA_CAPS, probe, unusableInput, type Probe } from './ffmpeg.js';
import { ACCEPTED, sniff } from './sniff.js';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

describe('sniff', () => {
  it('recognises the formats crew devices produce from their first bytes', () => {
    expect(sniff(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))?.format).toBe('jpeg');
    expect(sniff(bytes('\x89PNG\r\n\x1a\n', [0, 0, 0, 13]))?.format).toBe('png');
    expect(sniff(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))?.format).toBe('webp');
    expect(sniff(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))?.format).toBe('wav');
    expect(sniff(bytes([0, 0, 0, 0x1c], 'ftypisom', [0, 0, 2, 0]))?.format).toBe('mp4');
    expect(sniff(bytes([0, 0, 0, 0x14], 'ftypqt  '))?.format).toBe('quicktime');
    expect(sniff(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1, 0x42, 0x82, 0x84], 'webm'))?.format).toBe(
      'webm',
    );
    expect(sniff(bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x82, 0x88], 'matroska'))?.format).toBe('matroska');
    expect(sniff(bytes('OggS', [0, 2]))?.format).toBe('ogg');
    expect(sniff(bytes('ID3', [4, 0, 0]))?.format).toBe('mp3');
    expect(sniff(bytes([0xff, 0xfb, 0x90, 0x64]))?.format).toBe('mp3');
  });

  it('refuses what is none of them: text, HEIC/AVIF stills, an AAC (not layer III) frame, too few bytes', () => {
    expect(sniff(bytes('<!doctype html><html>'))).toBeNull();
    expect(sniff(bytes([0, 0, 0, 0x18], 'ftypheic'))).toBeNull();
    expect(sniff(bytes([0, 0, 0, 0x18], 'ftypavif'))).toBeNull();
    expect(sniff(bytes([0xff, 0xf1, 0x50, 0x80]))).toBeNull();
    expect(sniff(bytes([0xff, 0xd8]))).toBeNull();
  });

  it('accepts only images as photos and only recordings as video or voice memo', () => {
    expect(ACCEPTED.photo).toEqual(['jpeg', 'png', 'webp']);
    expect(ACCEPTED.video).not.toContain('jpeg');
    expect(ACCEPTED.voicememo).not.toContain('png');
  });
});

describe('parseRange', () => {
  it('reads one range of each form, clamped to the file', () => {
    expect(parseRange('bytes=0-99', 1_000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1_000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1_000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=990-5000', 1_000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=-5000', 1_000)).toEqual({ start: 0, end: 999 });
  });

  it('answers the whole file for no, malformed or multiple ranges; unsatisfiable past the end', () => {
    expect(parseRange(undefined, 1_000)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 1_000)).toBeNull();
    expect(parseRange('items=0-1', 1_000)).toBeNull();
    expect(parseRange('bytes=1000-', 1_000)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 1_000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1_000)).toBe('unsatisfiable');
  });
});

describe('conversionArgs', () => {
  const probeOf = (video: object | null, audio: object | null): Probe => ({
    streams: [
      ...(video ? [{ codec_type: 'video', ...video }] : []),
      ...(audio ? [{ codec_type: 'audio', ...audio }] : []),
    ],
    format: {},
  });
  const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

  it('copies H.264 yuv420p video and transcodes only Opus audio to AAC, moov first', () => {
    const args = conversionArgs(
      'video',
      probeOf({ codec_name: 'h264', pix_fmt: 'yuv420p' }, { codec_name: 'opus' }),
      'in',
      'out',
    );
    expect(after(args, '-c:v')).toBe('copy');
    expect(after(args, '-c:a')).toBe('aac');
    expect(after(args, '-movflags')).toBe('+faststart');
  });

  it('transcodes VP8/VP9 (and H.264 that is not yuv420p) with x264 ultrafast into yuv420p', () => {
    for (const video of [{ codec_name: 'vp8' }, { codec_name: 'vp9' }, { codec_name: 'h264', pix_fmt: 'yuv444p' }]) {
      const args = conversionArgs('video', probeOf(video, { codec_name: 'opus' }), 'in', 'out');
      expect(after(args, '-c:v')).toBe('libx264');
      expect(after(args, '-preset')).toBe('ultrafast');
      expect(after(args, '-pix_fmt')).toBe('yuv420p');
    }
  });

  it('keeps AAC audio as it is, and makes a silent video without an audio map', () => {
    const aac = conversionArgs(
      'video',
      probeOf({ codec_name: 'h264', pix_fmt: 'yuv420p' }, { codec_name: 'aac' }),
      'i',
      'o',
    );
    expect(after(aac, '-c:a')).toBe('copy');
    const silent = conversionArgs('video', probeOf({ codec_name: 'vp8' }, null), 'i', 'o');
    expect(silent).toContain('-an');
    expect(silent).not.toContain('0:a:0');
  });

  it('makes MP3 of a voice memo and one JPEG frame of an image', () => {
    const memo = conversionArgs('voicememo', probeOf(null, { codec_name: 'opus' }), 'i', 'o');
    expect(after(memo, '-c:a')).toBe('libmp3lame');
    expect(memo).toContain('-vn');
    const photo = conversionArgs('photo', probeOf({ codec_name: 'png' }, null), 'i', 'o');
    expect(after(photo, '-c:v')).toBe('mjpeg');
    expect(after(photo, '-frames:v')).toBe('1');
  });
});

describe('createJobQueue', () => {
  it('runs at most `concurrency` jobs at once, each id once, and reports failures', async () => {
    let running = 0;
    let peak = 0;
    const done: string[] = [];
    const failed: string[] = [];
    const queue = createJobQueue(
      2,
      async (id) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        if (id === 'bad') throw new Error('no');
        done.push(id);
      },
      (id) => failed.push(id),
    );
    for (const id of ['a', 'b', 'a', 'c', 'bad', 'd']) queue.enqueue(id);
    await queue.whenIdle();
    expect(peak).toBe(2);
    expect(done.sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(failed).toEqual(['bad']);
  });

  it('gives the next free slot to the next uploader in turn, not to the one with the most jobs', async () => {
    const order: string[] = [];
    const queue = createJobQueue(
      1,
      async (id) => {
        order.push(id);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
      () => undefined,
    );
    for (const id of ['a1', 'a2', 'a3', 'a4']) queue.enqueue(id, 'crew-a');
    queue.enqueue('b1', 'crew-b');
    queue.enqueue('c1', 'crew-c');
    await queue.whenIdle();
    // a1 was already running; then each crew in turn.
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'a4']);
  });

  it('aborts running jobs on close and takes no more', async () => {
    const seen: string[] = [];
    const queue = createJobQueue(
      1,
      (id, signal) =>
        new Promise<void>((resolve) => {
          seen.push(id);
          signal.addEventListener('abort', () => resolve());
        }),
      () => undefined,
    );
    queue.enqueue('long');
    queue.enqueue('next');
    await queue.close();
    queue.enqueue('late');
    expect(seen).toEqual(['long']);
  });
});

describe('media caps and limits (issue 17 item 3)', () => {
  const probed = (width: number, height: number, seconds?: number): Probe => ({
    streams: [{ codec_type: 'video', codec_name: 'h264', pix_fmt: 'yuv444p', width, height }],
    format: seconds === undefined ? {} : { duration: String(seconds) },
  });

  it('refuses on the probe what is over the pixel and duration caps, before decoding', () => {
    expect(unusableInput('video', probed(1920, 1080, 60))).toBeNull();
    expect(unusableInput('video', probed(3840, 2160, 60))).toBe('the video is larger than 1920×1088 (3840×2160)');
    expect(unusableInput('video', probed(1280, 720, MEDIA_CAPS.videoSeconds + 1))).toBe(
      'the video is longer than 10 minutes',
    );
    expect(unusableInput('photo', probed(4032, 3024))).toBeNull();
    expect(unusableInput('photo', probed(16_000, 16_000))).toBe('the image has more than 50 megapixels (16000×16000)');
    expect(unusableInput('ekg', probed(10_000, 10_000))).toMatch(/50 megapixels/);
  });

  it('runs each tool under a memory cap and a time limit, failing the job instead of the server', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbound-limits-'));
    try {
      // A tiny valid WAV (44-byte header + 0.1 s of silence).
      const samples = 4_800;
      const wav = Buffer.alloc(44 + samples * 2);
      wav.write('RIFF', 0);
      wav.writeUInt32LE(36 + samples * 2, 4);
      wav.write('WAVEfmt ', 8);
      wav.writeUInt32LE(16, 16);
      wav.writeUInt16LE(1, 20);
      wav.writeUInt16LE(1, 22);
      wav.writeUInt32LE(48_000, 24);
      wav.writeUInt32LE(96_000, 28);
      wav.writeUInt16LE(2, 32);
      wav.writeUInt16LE(16, 34);
      wav.write('data', 36);
      wav.writeUInt32LE(samples * 2, 40);
      const input = path.join(dir, 'memo.wav');
      writeFileSync(input, wav);
      const tools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
      const info = await probe({ ...tools, limits: { memoryBytes: 768 * 1_048_576, timeoutMs: 30_000 } }, input);
      expect(info.streams[0]?.codec_type).toBe('audio');
      // 16 MB of address space: the loader cannot even map ffprobe's libraries.
      await expect(
        probe({ ...tools, limits: { memoryBytes: 16 * 1_048_576, timeoutMs: 30_000 } }, input),
      ).rejects.toThrow();
      await expect(
        convert(
          { ...tools, limits: { memoryBytes: 768 * 1_048_576, timeoutMs: 1 } },
          'voicememo',
          info,
          input,
          path.join(dir, 'out.mp3'),
        ),
      ).rejects.toThrow(/took longer than 0.001 s and was stopped/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
