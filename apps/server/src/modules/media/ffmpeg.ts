/**
 * Conversion with Debian's ffmpeg into what every hospital browser plays (spec §9): MP4 with H.264
 * (yuv420p) and AAC, moov atom first (faststart) so playback starts before the whole file arrived;
 * MP3 for voice memos; JPEG for images. Chromium records H.264 with Opus in MP4, or VP8/VP9 with Opus
 * in WebM: H.264 is only remuxed (no quality loss, seconds instead of a transcode), the rest re-encoded.
 */
import { spawn } from 'node:child_process';
import type { MediaType } from '@inbound/contract';

export interface FfmpegPaths {
  ffmpeg: string;
  ffprobe: string;
  /** Per tool run (issue 17 item 3): address space and wall-clock time; absent: unlimited (tests of tools). */
  limits?: { memoryBytes: number; timeoutMs: number };
}

/**
 * Caps checked on the probe, before any decoding: a 16000×16000 PNG or a 4K yuv444p video from one
 * crew must not hold the conversion slots the other crews' photos need.
 */
export const MEDIA_CAPS = {
  /** Photos, IDs and EKG pictures: 50 megapixels (a 12-lead photo needs ~2). */
  imagePixels: 50_000_000,
  /** Video frames: 1920×1088 (the crew app records at most 1080p). */
  videoPixels: 1920 * 1088,
  /** Video length: 10 minutes. */
  videoSeconds: 600,
} as const;

export interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
}

export interface Probe {
  streams: ProbeStream[];
  format: { format_name?: string; duration?: string };
}

/**
 * Runs a tool, collects stdout and the tail of stderr; rejects with that tail on a non-zero exit.
 * With limits, under `prlimit --as` (the kernel refuses memory past the cap: the tool fails, the
 * server lives) and killed (SIGKILL) after the timeout.
 */
function run(
  command: string,
  args: string[],
  signal?: AbortSignal,
  limits?: FfmpegPaths['limits'],
): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const [file, argv] = limits ? ['prlimit', [`--as=${limits.memoryBytes}`, '--', command, ...args]] : [command, args];
    const signals = [...(signal ? [signal] : []), ...(limits ? [AbortSignal.timeout(limits.timeoutMs)] : [])];
    const child = spawn(file, argv, {
      stdio: ['ignore', 'pipe', 'pipe'],
      killSignal: 'SIGKILL',
      ...(signals.length ? { signal: AbortSignal.any(signals) } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2_000)));
    child.on('error', (error: Error) =>
      reject(
        error.name === 'AbortError' && !signal?.aborted
          ? new Error(`${command} took longer than ${(limits?.timeoutMs ?? 0) / 1000} s and was stopped`)
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve({ stdout });
      else reject(new Error(`${command} exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

export async function probe(paths: FfmpegPaths, file: string, signal?: AbortSignal): Promise<Probe> {
  const { stdout } = await run(
    paths.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file],
    signal,
    paths.limits,
  );
  const parsed = JSON.parse(stdout) as Partial<Probe>;
  return { streams: parsed.streams ?? [], format: parsed.format ?? {} };
}

/** Milliseconds from ffprobe's format duration; null when it has none (a still image). */
export function durationMs(info: Probe): number | null {
  const seconds = Number(info.format.duration);
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1_000) : null;
}

const firstOf = (info: Probe, type: string): ProbeStream | undefined => info.streams.find((s) => s.codec_type === type);

/** A reason the input cannot become the type's output, or null when it can. */
export function unusableInput(type: MediaType, info: Probe): string | null {
  const video = firstOf(info, 'video');
  const audio = firstOf(info, 'audio');
  const pixels = (video?.width ?? 0) * (video?.height ?? 0);
  if (type === 'video') {
    if (!video) return 'the file has no video stream';
    if (pixels > MEDIA_CAPS.videoPixels) return `the video is larger than 1920×1088 (${video.width}×${video.height})`;
    if ((durationMs(info) ?? 0) > MEDIA_CAPS.videoSeconds * 1_000) {
      return `the video is longer than ${MEDIA_CAPS.videoSeconds / 60} minutes`;
    }
    return null;
  }
  if (type === 'voicememo' || type === 'callrecording') return audio ? null : 'the file has no audio stream';
  if (!video) return 'the file has no image';
  if (pixels > MEDIA_CAPS.imagePixels) return `the image has more than 50 megapixels (${video.width}×${video.height})`;
  return null;
}

/**
 * The ffmpeg arguments turning `input` (as probed) into the type's output. One thread per job: the
 * queue runs one job per core, so a long transcode never starves the API of CPU.
 */
export function conversionArgs(type: MediaType, info: Probe, input: string, output: string): string[] {
  const head = ['-hide_banner', '-nostdin', '-y', '-threads', '1', '-i', input];
  if (type === 'voicememo') {
    return [...head, '-map', '0:a:0', '-vn', '-c:a', 'libmp3lame', '-q:a', '4', '-f', 'mp3', output];
  }
  if (type === 'callrecording') {
    // Two voices mixed into one track by the console: mono, speech quality (VBR ~ 64 kbit/s).
    return [...head, '-map', '0:a:0', '-vn', '-ac', '1', '-c:a', 'libmp3lame', '-q:a', '6', '-f', 'mp3', output];
  }
  if (type !== 'video') {
    // Images: one frame, re-encoded as JPEG (also drops metadata such as the camera's GPS position).
    return [...head, '-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', output];
  }
  const video = firstOf(info, 'video');
  const audio = firstOf(info, 'audio');
  const remux = video?.codec_name === 'h264' && video.pix_fmt === 'yuv420p';
  const videoArgs = remux
    ? ['-c:v', 'copy']
    : [
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-crf',
        '26',
        '-pix_fmt',
        'yuv420p',
        // H.264 in yuv420p needs even dimensions; a camera can deliver odd ones.
        '-vf',
        'scale=trunc(iw/2)*2:trunc(ih/2)*2',
      ];
  const audioArgs = !audio ? ['-an'] : audio.codec_name === 'aac' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k'];
  return [
    ...head,
    '-map',
    '0:v:0',
    ...(audio ? ['-map', '0:a:0'] : []),
    ...videoArgs,
    ...audioArgs,
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
}

export async function convert(
  paths: FfmpegPaths,
  type: MediaType,
  info: Probe,
  input: string,
  output: string,
  signal?: AbortSignal,
): Promise<void> {
  await run(paths.ffmpeg, conversionArgs(type, info, input, output), signal, paths.limits);
}
