/**
 * Configuration: one zod schema over the environment. Every problem is reported at once, so an
 * operator fixes a broken deployment in one pass instead of one restart per mistake.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BRAND_NAME_DEFAULT } from '@inbound/contract';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const DURATION = /^(\d+)\s*(ms|s|m|h|d)?$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "12h", "30m", "45s", "7d", "500ms" or plain seconds → milliseconds; null when unreadable. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const unit = (match[2] ?? 's') as keyof typeof UNIT_MS;
  const ms = Number(match[1]) * UNIT_MS[unit];
  return ms > 0 ? ms : null;
}

const duration = (name: string) =>
  z.string().transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === null) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a duration such as 12h, 30m or 900s` });
      return z.NEVER;
    }
    return ms;
  });

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a positive whole number`)
    .transform(Number)
    .refine((n) => n > 0, `${name} must be a positive whole number`);

const booleanFlag = (name: string) =>
  z
    .string()
    .transform((v) => v.trim().toLowerCase())
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no', ''].includes(v), `${name} must be true or false`)
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (name: string, protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

/** A comma-separated list of origins (scheme://host[:port]), each normalised by URL. */
const origins = (name: string) =>
  z.string().transform((text, ctx) => {
    const list: string[] = [];
    for (const item of text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      try {
        const parsed = new URL(item);
        if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
          list.push(parsed.origin);
          continue;
        }
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: `${name} must list origins such as https://inbound.example.org` });
      return z.NEVER;
    }
    return list;
  });

/**
 * A Leaflet tile URL template on ONE server: its origin goes into the CSP's img-src, so a `{s}`
 * subdomain wildcard (which would need `*.host` there) is refused.
 */
const tileUrl = (name: string) =>
  url(name, ['http:', 'https:']).refine((value) => {
    // zod runs this even after the URL check failed; that one reports the problem.
    if (!URL.canParse(value)) return true;
    return !new URL(value).host.includes('{') && ['{z}', '{x}', '{y}'].every((part) => value.includes(part));
  }, `${name} must be a tile URL on one server with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png`);

const IceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServer>;

const iceServers = z.string().transform((text, ctx) => {
  try {
    const parsed = z.array(IceServer).safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // falls through to the issue below
  }
  ctx.addIssue({ code: 'custom', message: 'ICE_SERVERS must be a JSON array of { urls, username?, credential? }' });
  return z.NEVER;
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = z
  .object({
    PORT: positiveInt('PORT')
      .refine((n) => n < 65_536, 'PORT must be at most 65535')
      .default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    // Server processes behind the one port (node:cluster); more than one needs PostgreSQL and Redis.
    WORKERS: positiveInt('WORKERS')
      .refine((n) => n <= 64, 'WORKERS must be at most 64')
      .default(1),
    // Behind a load balancer the client address is in X-Forwarded-For; without this every request
    // would seem to come from the balancer and share one sign-in limit.
    TRUST_PROXY: z
      .string()
      .transform((v): boolean | number | string =>
        v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v,
      )
      .default(false),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: url('DATABASE_URL', ['postgres:', 'postgresql:']).optional(),
    // Connections each process keeps to PostgreSQL: concurrent writes each hold one until their COMMIT.
    DATABASE_POOL_SIZE: positiveInt('DATABASE_POOL_SIZE')
      .refine((n) => n <= 500, 'DATABASE_POOL_SIZE must be at most 500')
      .default(10),
    REDIS_URL: url('REDIS_URL', ['redis:', 'rediss:']).optional(),
    // Several deployments (or test runs) may share one Redis: every key and pub/sub channel starts with this.
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default('inbound:'),
    REALTIME_ALLOWED_ORIGINS: origins('REALTIME_ALLOWED_ORIGINS').default([]),
    REALTIME_HEARTBEAT: duration('REALTIME_HEARTBEAT').default(10_000),
    REALTIME_MAX_FRAME_BYTES: positiveInt('REALTIME_MAX_FRAME_BYTES').default(16_384),
    REALTIME_MAX_MESSAGES_PER_SECOND: positiveInt('REALTIME_MAX_MESSAGES_PER_SECOND').default(20),
    REALTIME_RETENTION: duration('REALTIME_RETENTION').default(24 * 3_600_000),
    JWT_SECRET: z
      .string()
      .min(32, 'JWT_SECRET must be at least 32 characters (leave it unset to generate one)')
      .optional(),
    TOKEN_TTL: duration('TOKEN_TTL').default(12 * 3_600_000),
    AUTH_CACHE_TTL: duration('AUTH_CACHE_TTL').default(2_000),
    // A whole request (headers and body) must arrive within REQUEST_TIMEOUT, its headers within
    // HEADERS_TIMEOUT: a slow-loris client holds a connection for that long at most. Large media go
    // over tus in 4 MB chunks, which a 1 Mbit/s link sends in about 35 s.
    REQUEST_TIMEOUT: duration('REQUEST_TIMEOUT').default(90_000),
    HEADERS_TIMEOUT: duration('HEADERS_TIMEOUT').default(15_000),
    PUBLIC_URL: url('PUBLIC_URL', ['http:', 'https:']).optional(),
    MAP_TILE_URL: tileUrl('MAP_TILE_URL').optional(),
    // No third party by default: a STUN server learns every caller's public address and when they call.
    // Unset, calls use host candidates (one network) and the configured TURN (which answers STUN too).
    ICE_SERVERS: iceServers.default([]),
    // TURN REST API (coturn's use-auth-secret): the server mints each call's TURN credentials from
    // TURN_SECRET for TURN_URLS, valid TURN_CREDENTIAL_TTL. Unset: no TURN (ICE_SERVERS only).
    TURN_URLS: z
      .string()
      .transform((text) =>
        text
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .refine(
        (urls) => urls.every((u) => /^turns?:[^\s]+$/.test(u)),
        'TURN_URLS must be turn: or turns: URLs, comma-separated',
      )
      .optional(),
    TURN_SECRET: z.string().min(16, 'TURN_SECRET must be at least 16 characters').optional(),
    TURN_CREDENTIAL_TTL: duration('TURN_CREDENTIAL_TTL').default(2 * 3_600_000),
    /** 'relay': browsers use TURN only (no host or server-reflexive candidates: the addresses stay hidden). */
    ICE_TRANSPORT_POLICY: z.enum(['all', 'relay']).default('all'),
    LLM_BASE_URL: url('LLM_BASE_URL', ['http:', 'https:']).optional(),
    LLM_MODEL: z.string().min(1).optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    BRAND_NAME: z.string().min(1).max(60).default(BRAND_NAME_DEFAULT),
    SEED_DEMO: booleanFlag('SEED_DEMO').default(false),
    NODE_ENV: z.string().optional(),
    // The OpenAPI document and Swagger UI: a map of the attack surface, so off in production unless asked for.
    API_DOCS: booleanFlag('API_DOCS').optional(),
    // Off: no /metrics, no per-request measuring (for a deployment that scrapes nothing).
    METRICS_ENABLED: booleanFlag('METRICS_ENABLED').default(true),
    // Scrapers of /metrics present it as a Bearer token; unset, /metrics answers loopback only.
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    // A Sentry-compatible project that the apps' error reports are forwarded to (besides the log).
    ERROR_REPORT_DSN: url('ERROR_REPORT_DSN', ['http:', 'https:'])
      .refine(
        (v) => !URL.canParse(v) || (new URL(v).username !== '' && /\/\d+$/.test(new URL(v).pathname)),
        'ERROR_REPORT_DSN must be a DSN such as https://<key>@errors.example.org/<project id>',
      )
      .optional(),
    ERROR_REPORT_ENVIRONMENT: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/)
      .default('production'),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    CREW_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/crew/dist')),
    HOSPITAL_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/hospital/dist')),
    // Sign-in limits: per address (network-level guessing) and per account (targeted guessing).
    SIGNIN_LIMIT_PER_ADDRESS: positiveInt('SIGNIN_LIMIT_PER_ADDRESS').default(30),
    SIGNIN_WINDOW_PER_ADDRESS: duration('SIGNIN_WINDOW_PER_ADDRESS').default(60_000),
    SIGNIN_LIMIT_PER_ACCOUNT: positiveInt('SIGNIN_LIMIT_PER_ACCOUNT').default(10),
    SIGNIN_WINDOW_PER_ACCOUNT: duration('SIGNIN_WINDOW_PER_ACCOUNT').default(15 * 60_000),
    // Media: where files go (default DATA_DIR/media), how many conversions run at once (one per core),
    // and which ffmpeg/ffprobe binaries convert them.
    MEDIA_DIR: z.string().min(1).optional(),
    MEDIA_CONVERT_JOBS: positiveInt('MEDIA_CONVERT_JOBS').optional(),
    FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
    FFPROBE_PATH: z.string().min(1).default('ffprobe'),
    // Each ffmpeg/ffprobe run: at most this much memory (address space) and time, then it is stopped.
    MEDIA_JOB_MEMORY_MB: positiveInt('MEDIA_JOB_MEMORY_MB').default(768),
    MEDIA_JOB_TIMEOUT: duration('MEDIA_JOB_TIMEOUT').default(120_000),
    // An S3-compatible bucket for media instead of MEDIA_DIR (which then keeps only scratch space).
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ENDPOINT: url('S3_ENDPOINT', ['http:', 'https:']).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanFlag('S3_FORCE_PATH_STYLE').optional(),
  })
  .superRefine((e, ctx) => {
    if (e.WORKERS > 1 && !e.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: `WORKERS=${e.WORKERS} needs DATABASE_URL (PostgreSQL): the SQLite database is one file that one process writes`,
      });
    }
    if (e.WORKERS > 1 && !e.REDIS_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: `WORKERS=${e.WORKERS} needs REDIS_URL: the processes share live messages, presence, rate limits and upload locks through Redis`,
      });
    }
    if (e.S3_BUCKET && (!e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
      });
    }
  });

export interface Config {
  port: number;
  host: string;
  /** Server processes behind the port (main.ts); > 1 only with PostgreSQL and Redis. */
  workers: number;
  /** Fastify's trustProxy: true, a hop count, or a comma-separated list of proxy addresses/CIDRs. */
  trustProxy: boolean | number | string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  redisUrl: string | null;
  redisKeyPrefix: string;
  realtime: {
    /** Origins besides PUBLIC_URL's and the server's own host that may open /realtime. */
    allowedOrigins: string[];
    heartbeatMs: number;
    maxFrameBytes: number;
    maxMessagesPerSecond: number;
    /** How long a channel's messages stay readable for clients catching up. */
    retentionMs: number;
  };
  /** Null until resolved: `loadConfig` reads or generates it; tests pass their own. */
  jwtSecret: string | null;
  tokenTtlMs: number;
  /** Slow-client bounds (REQUEST_TIMEOUT, HEADERS_TIMEOUT). */
  timeouts: { requestMs: number; headersMs: number };
  /** How long a checked token is trusted without a database read; bounds cross-process revocation lag. */
  authCacheMs: number;
  publicUrl: string | null;
  /** Leaflet tile template for the console's route map; null: the map is drawn without tiles. */
  mapTileUrl: string | null;
  iceServers: IceServer[];
  /** Calls' TURN (issue 12): null without TURN_SECRET and TURN_URLS. */
  turn: { urls: string[]; secret: string; ttlMs: number } | null;
  iceTransportPolicy: 'all' | 'relay';
  llm: { baseUrl: string; model: string | null; apiKey: string | null } | null;
  brandName: string;
  seedDemo: boolean;
  /** Serve /api/docs (API_DOCS; default on except when NODE_ENV=production). */
  apiDocs: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  metricsEnabled: boolean;
  /** Null: /metrics answers loopback connections only. */
  metricsToken: string | null;
  /** Field error reports also go to this Sentry-compatible DSN; null: the log and metrics only. */
  errorReports: { dsn: string | null; environment: string };
  crewDist: string;
  hospitalDist: string;
  signInLimits: {
    perAddress: { max: number; windowMs: number };
    perAccount: { max: number; windowMs: number };
  };
  media: {
    dir: string;
    convertJobs: number;
    ffmpeg: string;
    ffprobe: string;
    /** Per ffmpeg/ffprobe run. */
    jobLimits: { memoryBytes: number; timeoutMs: number };
    /** Null: files under `dir`. */
    s3: {
      bucket: string;
      region: string;
      endpoint: string | null;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
    } | null;
  };
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Parses the environment without touching the disk. Empty variables count as unset. */
export function parseConfig(env: Record<string, string | undefined>): ConfigResult {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    });
    return { ok: false, problems };
  }
  const e = result.data;
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      workers: e.WORKERS,
      trustProxy: e.TRUST_PROXY,
      dataDir: path.resolve(e.DATA_DIR),
      databaseUrl: e.DATABASE_URL ?? null,
      databasePoolSize: e.DATABASE_POOL_SIZE,
      redisUrl: e.REDIS_URL ?? null,
      redisKeyPrefix: e.REDIS_KEY_PREFIX,
      realtime: {
        allowedOrigins: e.REALTIME_ALLOWED_ORIGINS,
        heartbeatMs: e.REALTIME_HEARTBEAT,
        maxFrameBytes: e.REALTIME_MAX_FRAME_BYTES,
        maxMessagesPerSecond: e.REALTIME_MAX_MESSAGES_PER_SECOND,
        retentionMs: e.REALTIME_RETENTION,
      },
      jwtSecret: e.JWT_SECRET ?? null,
      tokenTtlMs: e.TOKEN_TTL,
      authCacheMs: e.AUTH_CACHE_TTL,
      timeouts: { requestMs: e.REQUEST_TIMEOUT, headersMs: e.HEADERS_TIMEOUT },
      publicUrl: e.PUBLIC_URL?.replace(/\/+$/, '') ?? null,
      mapTileUrl: e.MAP_TILE_URL ?? null,
      iceServers: e.ICE_SERVERS,
      turn:
        e.TURN_SECRET && e.TURN_URLS?.length
          ? { urls: e.TURN_URLS, secret: e.TURN_SECRET, ttlMs: e.TURN_CREDENTIAL_TTL }
          : null,
      iceTransportPolicy: e.ICE_TRANSPORT_POLICY,
      llm: e.LLM_BASE_URL
        ? { baseUrl: e.LLM_BASE_URL, model: e.LLM_MODEL ?? null, apiKey: e.LLM_API_KEY ?? null }
        : null,
      brandName: e.BRAND_NAME,
      seedDemo: e.SEED_DEMO,
      apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
      logLevel: e.LOG_LEVEL,
      metricsEnabled: e.METRICS_ENABLED,
      metricsToken: e.METRICS_TOKEN ?? null,
      errorReports: { dsn: e.ERROR_REPORT_DSN ?? null, environment: e.ERROR_REPORT_ENVIRONMENT },
      crewDist: path.resolve(e.CREW_DIST),
      hospitalDist: path.resolve(e.HOSPITAL_DIST),
      signInLimits: {
        perAddress: { max: e.SIGNIN_LIMIT_PER_ADDRESS, windowMs: e.SIGNIN_WINDOW_PER_ADDRESS },
        perAccount: { max: e.SIGNIN_LIMIT_PER_ACCOUNT, windowMs: e.SIGNIN_WINDOW_PER_ACCOUNT },
      },
      media: {
        dir: path.resolve(e.MEDIA_DIR ?? path.join(e.DATA_DIR, 'media')),
        convertJobs: e.MEDIA_CONVERT_JOBS ?? availableParallelism(),
        ffmpeg: e.FFMPEG_PATH,
        ffprobe: e.FFPROBE_PATH,
        jobLimits: { memoryBytes: e.MEDIA_JOB_MEMORY_MB * 1_048_576, timeoutMs: e.MEDIA_JOB_TIMEOUT },
        s3:
          e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
            ? {
                bucket: e.S3_BUCKET,
                region: e.S3_REGION,
                endpoint: e.S3_ENDPOINT ?? null,
                accessKeyId: e.S3_ACCESS_KEY_ID,
                secretAccessKey: e.S3_SECRET_ACCESS_KEY,
                // S3-compatible servers mostly serve path-style; AWS itself prefers virtual hosts.
                forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
              }
            : null,
      },
    },
  };
}

/**
 * The JWT signing secret: from the environment, else the one kept in DATA_DIR, else a new one written
 * there (mode 600) — so tokens survive a restart without anyone having to invent a secret.
 */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** Reads the environment and resolves the secret; throws a ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config & { jwtSecret: string } {
  const result = parseConfig(env);
  if (!result.ok) throw new ConfigError(result.problems);
  return { ...result.config, jwtSecret: resolveJwtSecret(result.config) };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
