/**
 * Test media made with the real ffmpeg, as a crew device would send them: a JPEG photo, a PNG, an MP4
 * with H.264 and Opus (Chromium's `video/mp4;codecs=avc1,opus`), a WebM with VP8 and Opus, and a WebM
 * voice memo with Opus. And the probes the tests check the converted files with.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { probe, type Probe } from './ffmpeg.js';

const exec = promisify(execFile);
const TOOLS = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

export interface TestMedia {
  jpeg: Buffer;
  png: Buffer;
  /** 5 s, H.264 (yuv420p) + Opus in MP4. */
  h264OpusMp4: Buffer;
  /** 5 s, VP8 + Opus in WebM. */
  vp8OpusWebm: Buffer;
  /** 3 s, Opus in WebM. */
  opusWebm: Buffer;
}

async function ffmpeg(args: string[]): Promise<void> {
  await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

const picture = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25'];
const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'];

export async function makeTestMedia(dir: string): Promise<TestMedia> {
  const file = (name: string) => path.join(dir, name);
  await Promise.all([
    ffmpeg([...picture, '-frames:v', '1', file('photo.jpg')]),
    ffmpeg([...picture, '-frames:v', '1', file('photo.png')]),
    ffmpeg([
      ...picture,
      ...tone,
      '-t',
      '5',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'libopus',
      '-f',
      'mp4',
      file('h264-opus.mp4'),
    ]),
    ffmpeg([
      ...picture,
      ...tone,
      '-t',
      '5',
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-b:v',
      '500k',
      '-c:a',
      'libopus',
      file('vp8-opus.webm'),
    ]),
    ffmpeg([...tone, '-t', '3', '-c:a', 'libopus', '-f', 'webm', file('voice.webm')]),
  ]);
  const [jpeg, png, h264OpusMp4, vp8OpusWebm, opusWebm] = await Promise.all(
    ['photo.jpg', 'photo.png', 'h264-opus.mp4', 'vp8-opus.webm', 'voice.webm'].map((n) => readFile(file(n))),
  );
  return {
    jpeg: jpeg as Buffer,
    png: png as Buffer,
    h264OpusMp4: h264OpusMp4 as Buffer,
    vp8OpusWebm: vp8OpusWebm as Buffer,
    opusWebm: opusWebm as Buffer,
  };
}

export const probeFile = (file: string): Promise<Probe> => probe(TOOLS, file);

export function streamOf(info: Probe, type: 'video' | 'audio') {
  return info.streams.find((s) => s.codec_type === type);
}

export const seconds = (info: Probe): number => Number(info.format.duration);
