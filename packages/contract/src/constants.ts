/** Business constants of the crew-app spec (§9) and our own limits. One place, imported by every app. */

export const BRAND_NAME_DEFAULT = 'Inbound';

export const CLIENT_NAME = 'ems-web';
export const CLIENT_VERSION = '1.0.234';
export const CHAT_SOURCE = 'web_ems';

export const AUTO_LOGOUT_CHECK_MS = 5_000;
export const DEFAULT_SHIFT_HOURS = 8;
/** Stored format of the auto-logout time; shown to the user as hh:mm a. */
export const AUTO_LOGOUT_TIME_FORMAT = 'HH:mm:ss';

export const LOCATION_UPDATE_MS = 15_000;
export const MEDIA_UPLOAD_RETRY_MS = 2_000;

export const CASE_TRANSFER_POLL_MS = 5_000;
export const CASE_TRANSFER_OFFLINE_TIMEOUT_MS = 60_000;
export const CASE_TRANSFER_UNSUBSCRIBE_DELAY_MS = 2_000;

export const PLACEHOLDER_ID_PREFIX = 'placeholder-';
export const PLACEHOLDER_CASE_NUMBER = '...';

export const AGE_MIN = 1;
/** Period codes of the spec: 1 weeks, 2 months, 3 years (default 3). */
export const AGE_PERIOD = { weeks: 1, months: 2, years: 3 } as const;
export type AgePeriodCode = (typeof AGE_PERIOD)[keyof typeof AGE_PERIOD];
export const AGE_MAX_BY_PERIOD: Record<AgePeriodCode, number> = { 1: 24, 2: 24, 3: 120 };
export const DEFAULT_AGE_PERIOD: AgePeriodCode = 3;

export const MONITOR_PATIENT_ID_DIGITS = 4;
export const RATING_STARS = 5;
export const CASE_FEEDBACK_TYPE = 'ems';
export const FEEDBACK_SENDING_RESET_MS = 1_000;

export const DEFAULT_TAG_COLOR = '#AAAAAA';
/** A colour whose brightness is at least this gets black text, otherwise white (§9). */
export const TEXT_BRIGHTNESS_THRESHOLD = 128;

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const FEATURE = {
  aiEnhancedProtocols: 'aiEnhancedProtocols',
  liveConsult: 'liveConsult',
  emsFeedback: 'emsFeedback',
  showAiProtocolFeedback: 'showAiProtocolFeedback',
  aiProtocolHideSummary: 'aiProtocolHideSummary',
  caseRequiresPtNameAndDOB: 'caseRequiresPtNameAndDOB',
  /** Ours (spec §3 EMS department allowsToRecord): the ED records its voice calls. */
  allowsToRecord: 'allowsToRecord',
} as const;
export type FeatureName = (typeof FEATURE)[keyof typeof FEATURE];

/** Password rules, enforced by the server and shown by the client. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
/** Upper bound for free-text inputs that have no tighter bound of their own. */
export const TEXT_MAX_LENGTH = 10_000;
export const NAME_MAX_LENGTH = 200;
