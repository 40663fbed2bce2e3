/**
 * Media of a case (spec §3 uploads and media counts, §4 photo/id/ekg/video/voicememo events, §7
 * `POST /media/twiage-cases/{id}/uploads`, §9 conversion). The crew sends the recording as it has it;
 * the server sniffs the bytes, keeps the original, and converts video to MP4 (H.264, AAC, yuv420p) and
 * audio to MP3 — what the hospital plays. Until then the upload's status is `processing`.
 */
import { z } from 'zod';
import { MediaCounts } from './case.js';
import { Id } from './entities.js';
import { ChatMessage, VOICE_MEMO_MAX_SECONDS } from './realtime-api.js';

export const MEDIA_TYPES = ['photo', 'id', 'ekg', 'video', 'voicememo', 'callrecording'] as const;
export const MediaType = z.enum(MEDIA_TYPES, { error: `type must be one of ${MEDIA_TYPES.join(', ')}` });
export type MediaType = z.infer<typeof MediaType>;

/**
 * The kinds the case's media counts count (spec §3: photo, id, ekg, video, voice memo) — what the crew
 * sends. A `callrecording` is the ED's record of a voice call (issue 12): made and uploaded by the
 * console that answered, listed and played for the destination's ED staff only, never in the counts.
 */
export const MEDIA_COUNTED_TYPES = ['photo', 'id', 'ekg', 'video', 'voicememo'] as const;
export type CountedMediaType = (typeof MEDIA_COUNTED_TYPES)[number];
export const isCountedMediaType = (type: MediaType): type is CountedMediaType => type !== 'callrecording';

/** What each type becomes: the hospital receives `{eventType}.jpeg`, `.mp4` or `.mp3` (§4). */
export const MEDIA_OUTPUT = {
  photo: { extension: 'jpeg', contentType: 'image/jpeg' },
  id: { extension: 'jpeg', contentType: 'image/jpeg' },
  ekg: { extension: 'jpeg', contentType: 'image/jpeg' },
  video: { extension: 'mp4', contentType: 'video/mp4' },
  voicememo: { extension: 'mp3', contentType: 'audio/mpeg' },
  callrecording: { extension: 'mp3', contentType: 'audio/mpeg' },
} as const satisfies Record<MediaType, { extension: string; contentType: string }>;

export const mediaFileName = (type: MediaType): string => `${type}.${MEDIA_OUTPUT[type].extension}`;

const MB = 1_048_576;

/**
 * The largest original accepted per type. A 12-lead photo resized on the device is ≤ 400 KB; a raw
 * camera JPEG of a phone is 3–8 MB. Chromium's MediaRecorder writes ~2.5 Mbit/s of video: 150 MB is
 * about 8 minutes; a voice memo at 32–128 kbit/s Opus stays well under 20 MB for 20 minutes.
 */
export const MEDIA_MAX_BYTES = {
  photo: 15 * MB,
  id: 15 * MB,
  ekg: 15 * MB,
  video: 150 * MB,
  voicememo: 20 * MB,
  // The console records at 32 kbit/s Opus: 40 MB is about 2 h 45 min of call.
  callrecording: 40 * MB,
} as const satisfies Record<MediaType, number>;

/**
 * Above this size the crew app should upload resumably (tus, `MEDIA_TUS_PATH`): a plain multipart
 * POST that breaks at 90 % of a 40 MB video starts again from zero over a cellular link.
 */
export const MEDIA_RESUMABLE_ABOVE_BYTES = 4 * MB;

/** The tus endpoint (creation, HEAD for the offset, PATCH to resume). */
export const MEDIA_TUS_PATH = '/media/uploads';

/**
 * The photo the crew app sends (measured in docs/media.md on a rendered 12-lead): long side in
 * pixels and JPEG quality (0–1, as `canvas.toBlob` takes it). Keeps the finest ECG grid readable
 * and the file ≤ `PHOTO_TARGET_BYTES`.
 */
export const PHOTO_LONG_SIDE_PX = 1440;
export const PHOTO_JPEG_QUALITY = 0.8;
export const PHOTO_TARGET_BYTES = 400 * 1_024;

/** `processing`: stored, not yet converted; `ready`: the hospital can play it; `failed`: not convertible. */
export const MediaStatus = z.enum(['processing', 'ready', 'failed']);
export type MediaStatus = z.infer<typeof MediaStatus>;

/** One upload of a case: the case's `uploads` entry with what a player needs. */
export const MediaUpload = z.object({
  id: Id,
  type: MediaType,
  status: MediaStatus,
  /** `{eventType}.jpeg|.mp4|.mp3` — the file served at `url` once `ready`. */
  fileName: z.string(),
  contentType: z.string(),
  /** Bytes of the converted file when ready, else of the original. */
  size: z.number().int(),
  /** Length of video and voice memos in milliseconds, once probed; null for photos. */
  durationMs: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  /** Server path of the file (GET, range requests allowed). */
  url: z.string(),
  /** A `callrecording`: the call it recorded. */
  callId: Id.optional(),
  /** A `callrecording` cut short: its console closed mid-call and sent what it had kept (decision 0042). */
  partial: z.literal(true).optional(),
});
export type MediaUpload = z.infer<typeof MediaUpload>;

export const MediaUploadParams = z.object({ id: Id });
export const MediaAccessParams = z.object({ id: Id, uploadId: Id });

/**
 * A link to an upload's file that works without the Authorization header — what `<video src>` and
 * `<img src>` need to load (and seek with range requests). Bound to that one file, valid until
 * `expiresAt` (`MEDIA_ACCESS_TTL_MS`); ask again for a new one.
 */
export const MediaAccessResponse = z.object({ url: z.string(), expiresAt: z.iso.datetime() });
export type MediaAccessResponse = z.infer<typeof MediaAccessResponse>;
export const MEDIA_ACCESS_TTL_MS = 10 * 60_000;
export const MediaFileParams = z.object({ id: Id, uploadId: Id, fileName: z.string().min(1).max(64) });

/**
 * The answer to an upload (multipart or, at its end, tus): the upload, the case's media counts after
 * it, and the case event that records it. A replay (same Idempotency-Key) answers the first answer.
 */
export const MediaUploadResponse = z.object({
  upload: MediaUpload,
  mediaCounts: MediaCounts,
  event: z.object({ id: Id, seq: z.number().int(), type: MediaType, createdAt: z.iso.datetime() }),
  /** A voice memo sent with `chatLength`: the VOICE_MEMO chat message recorded with it (issue 6 item 4). */
  chatMessage: ChatMessage.optional(),
});
export type MediaUploadResponse = z.infer<typeof MediaUploadResponse>;

export const MediaListResponse = z.object({ uploads: z.array(MediaUpload), mediaCounts: MediaCounts });
export type MediaListResponse = z.infer<typeof MediaListResponse>;

/**
 * tus `Upload-Metadata` keys the server reads at creation: the case, the media type and the
 * Idempotency-Key of the upload (a second tus upload with the same key records nothing twice).
 */
export const MEDIA_TUS_METADATA = {
  caseId: 'caseId',
  type: 'type',
  idempotencyKey: 'idempotencyKey',
  chatLength: 'chatLength',
} as const;

/**
 * Voice memo as chat (issue 6 item 4): a `voicememo` upload that carries `chatLength` — the multipart
 * field, before `data`, or the tus metadata of that name — is also posted in the case's chat as a
 * VOICE_MEMO message (`mediaId` = the upload, `length` = these seconds), in the same case write as the
 * upload: one Idempotency-Key, so a replay records neither twice. Other types refuse it (400).
 */
export const MEDIA_CHAT_LENGTH_FIELD = MEDIA_TUS_METADATA.chatLength;

/**
 * A `callrecording` upload names its call in the multipart field `callId` (after `type`, before
 * `data`): only the ED staff member who answered that call of the case uploads it, once per call, and
 * only when the call's department records calls (spec §3 allowsToRecord). Multipart only: a recording
 * is at most `MEDIA_MAX_BYTES.callrecording` and goes from a console on the hospital's network.
 */
export const MEDIA_CALL_ID_FIELD = 'callId';
/**
 * A `callrecording` that stops before its call did — the console closed or crashed mid-call and uploaded
 * what it had kept when it next started — carries the multipart field `partial` = `true` (before `data`).
 */
export const MEDIA_PARTIAL_FIELD = 'partial';
/** How the console records a call: Opus in WebM, one mixed (mono) track, this many bits per second. */
export const CALL_RECORDING_BITS_PER_SECOND = 32_000;
export const MediaChatLength = z.coerce
  .number({ error: 'chatLength must be a number of seconds' })
  .positive({ error: 'chatLength must be more than 0 seconds' })
  .max(VOICE_MEMO_MAX_SECONDS, { error: `chatLength must be at most ${VOICE_MEMO_MAX_SECONDS} seconds` });

export const mediaMessages = {
  empty: 'The file is empty.',
  missingFile: 'The upload must carry the file in the multipart field "data".',
  missingType: 'The upload must name its type in the multipart field "type", before "data".',
  chatLengthNotVoiceMemo: 'chatLength belongs to a voicememo upload only.',
  notMultipart: 'The upload must be sent as multipart/form-data with the fields "type" and "data".',
  tooLarge: (type: MediaType, maxBytes: number) =>
    `The ${type} file is too large: at most ${Math.round(maxBytes / MB)} MB.`,
  unsupported: (type: MediaType, accepted: string) =>
    `This file is not a supported ${type}: send ${accepted}. The content is checked, not the file name.`,
  processing: 'The file is still being converted; try again in a moment.',
  failed: 'The file could not be converted.',
  linkInvalid: 'This media link is not valid or has expired; open the media again.',
  callIdMissing: 'A call recording must name its call in the multipart field "callId", before "data".',
  callIdNotRecording: 'callId belongs to a callrecording upload only.',
  partialNotRecording: 'partial belongs to a callrecording upload only.',
  partialValue: 'partial must be "true" when sent.',
  recordingByAnswerer: 'Only the ED staff member who answered the call uploads its recording.',
  recordingNotForCrew: 'A crew uploads photos, IDs, EKGs, videos and voice memos; call recordings come from the ED.',
  hospitalUploadsRecordingsOnly: 'ED staff upload call recordings only.',
  callNotRecorded: "This call is not recorded: its hospital's department does not record calls.",
  callNotAnswered: 'This call was never answered: there is nothing recorded.',
  alreadyRecorded: 'This call already has its recording.',
  recordingForEdOnly: "A call's recording is the destination ED's: its ED staff list and play it.",
  recordingNotOverTus: 'A call recording is uploaded as multipart/form-data, not resumably.',
} as const;
