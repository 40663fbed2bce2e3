/**
 * What a file is, from its first bytes — never from its name or the type the client declared, which
 * a crew device (or anyone holding a token) can set to anything. Only the formats a crew device
 * records or photographs are recognised; everything else is refused before it reaches ffmpeg.
 */
import type { MediaType } from '@inbound/contract';

export type SniffedFormat = 'jpeg' | 'png' | 'webp' | 'mp4' | 'quicktime' | 'webm' | 'matroska' | 'ogg' | 'mp3' | 'wav';

export interface Sniffed {
  format: SniffedFormat;
  contentType: string;
  /** The extension the original is stored under. */
  extension: string;
}

/** Bytes needed to recognise every format below (the EBML DocType sits within the first few dozen). */
export const SNIFF_BYTES = 64;

const FORMATS: Record<SniffedFormat, Sniffed> = {
  jpeg: { format: 'jpeg', contentType: 'image/jpeg', extension: 'jpeg' },
  png: { format: 'png', contentType: 'image/png', extension: 'png' },
  webp: { format: 'webp', contentType: 'image/webp', extension: 'webp' },
  mp4: { format: 'mp4', contentType: 'video/mp4', extension: 'mp4' },
  quicktime: { format: 'quicktime', contentType: 'video/quicktime', extension: 'mov' },
  webm: { format: 'webm', contentType: 'video/webm', extension: 'webm' },
  matroska: { format: 'matroska', contentType: 'video/x-matroska', extension: 'mkv' },
  ogg: { format: 'ogg', contentType: 'audio/ogg', extension: 'ogg' },
  mp3: { format: 'mp3', contentType: 'audio/mpeg', extension: 'mp3' },
  wav: { format: 'wav', contentType: 'audio/wav', extension: 'wav' },
};

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/** ISO-BMFF brands of still images (HEIF, AVIF): an `ftyp` box alone does not make a video. */
const IMAGE_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis']);

/** The EBML DocType ("webm" or "matroska"), looked for in the header element. */
function ebmlDocType(bytes: Uint8Array): SniffedFormat {
  const head = ascii(bytes, 4, Math.min(bytes.length, SNIFF_BYTES) - 4);
  return head.includes('webm') ? 'webm' : 'matroska';
}

function isMp3FrameSync(bytes: Uint8Array): boolean {
  // 11 set sync bits, MPEG version not "reserved", layer III.
  const b0 = bytes[0];
  const b1 = bytes[1];
  return b0 === 0xff && b1 !== undefined && (b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08 && (b1 & 0x06) === 0x02;
}

export function sniff(bytes: Uint8Array): Sniffed | null {
  if (bytes.length < 4) return null;
  const at = (i: number) => bytes[i];
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return FORMATS.jpeg;
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return FORMATS.png;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return FORMATS.webp;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return FORMATS.wav;
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (IMAGE_BRANDS.has(brand)) return null;
    return brand === 'qt  ' ? FORMATS.quicktime : FORMATS.mp4;
  }
  if (at(0) === 0x1a && at(1) === 0x45 && at(2) === 0xdf && at(3) === 0xa3) return FORMATS[ebmlDocType(bytes)];
  if (ascii(bytes, 0, 4) === 'OggS') return FORMATS.ogg;
  if (ascii(bytes, 0, 3) === 'ID3' || isMp3FrameSync(bytes)) return FORMATS.mp3;
  return null;
}

/** Which sniffed formats each media type accepts; the streams inside are checked by ffprobe later. */
export const ACCEPTED: Record<MediaType, readonly SniffedFormat[]> = {
  photo: ['jpeg', 'png', 'webp'],
  id: ['jpeg', 'png', 'webp'],
  ekg: ['jpeg', 'png', 'webp'],
  video: ['mp4', 'quicktime', 'webm', 'matroska'],
  voicememo: ['webm', 'matroska', 'ogg', 'mp3', 'mp4', 'wav'],
  // What MediaRecorder writes: WebM (Chromium, Firefox) or MP4 (Safari); Ogg from Firefox's audio/ogg.
  callrecording: ['webm', 'matroska', 'ogg', 'mp4'],
};

export const ACCEPTED_TEXT: Record<MediaType, string> = {
  photo: 'a JPEG, PNG or WebP image',
  id: 'a JPEG, PNG or WebP image',
  ekg: 'a JPEG, PNG or WebP image',
  video: 'an MP4, QuickTime, WebM or Matroska video',
  voicememo: 'a WebM, Ogg, MP3, MP4 or WAV recording',
  callrecording: 'a WebM, Ogg or MP4 recording',
};
