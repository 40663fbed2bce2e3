/**
 * Starts the server: reads the config (refusing to start, with every problem listed, when it is
 * wrong), migrates, seeds the demo data when SEED_DEMO=true, listens, and says what it runs on.
 * SIGTERM/SIGINT close it cleanly: in-flight requests finish, the database closes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig } from './config.js';
import { PRIVATE_UMASK, securePrivateFiles } from './data-dir.js';
import { createDatabase, redactUrl } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { hashPassword } from './modules/auth/passwords.js';
import { demoSignIns, seedDemoData } from './seed/seed.js';

/** Conversions fail without ffmpeg (uploads are still kept): say so at start rather than per upload. */
function ffmpegLine(ffmpeg: string, jobs: number): string {
  const found = spawnSync(ffmpeg, ['-version'], { stdio: 'ignore' }).status === 0;
  return found
    ? `converted by ${ffmpeg}, ${jobs} at a time`
    : `${ffmpeg} NOT FOUND: videos and voice memos stay unconverted (run scripts/ensure-ffmpeg.sh)`;
}

const describeLimit = (limit: { max: number; windowMs: number }) =>
  `${limit.max}/${Math.round(limit.windowMs / 1000)} s`;

async function main(): Promise<void> {
  // Before anything is written (the generated JWT secret, the database): new files are the server's only.
  process.umask(PRIVATE_UMASK);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`inbound: cannot start.\n${error.message}`);
      process.exit(2);
    }
    throw error;
  }

  securePrivateFiles([config.dataDir, ...(config.media.s3 ? [] : [config.media.dir])]);
  const database = createDatabase(config);
  const applied = await migrateToLatest(database.db);
  const seeded = config.seedDemo ? await seedDemoData(database.db, { clock: systemClock, hashPassword }) : null;

  const app = await buildApp(config, { database });
  const address = await app.listen({ port: config.port, host: config.host });
  const url = config.publicUrl ?? `http://localhost:${config.port}`;

  const lines = [
    `${config.brandName} server listening on ${address} — open ${url}`,
    `  database   ${database.dialect} (${database.location})${applied.length ? `, migrations applied: ${applied.join(', ')}` : ''}`,
    `  broker     ${config.redisUrl ? `redis (${redactUrl(config.redisUrl)}, keys ${config.redisKeyPrefix}*)` : 'in-process'}; real time at /realtime`,
    `  storage    ${config.dataDir}`,
    `  media      ${config.media.s3 ? `bucket ${config.media.s3.bucket}` : `files in ${config.media.dir}`}; ${ffmpegLine(config.media.ffmpeg, config.media.convertJobs)}`,
    `  crew app   ${existsSync(config.crewDist) ? `${url}/` : `not built (${config.crewDist})`}`,
    `  hospital   ${existsSync(config.hospitalDist) ? `${url}/hospital/` : `not built (${config.hospitalDist})`}`,
    `  API docs   ${config.apiDocs ? `${url}/api/docs` : 'off (API_DOCS=true to serve them)'}`,
    `  auth       tokens last ${config.tokenTtlMs / 60_000} min; sign-in limits ${describeLimit(config.signInLimits.perAddress)} per address, ${describeLimit(config.signInLimits.perAccount)} failures per account`,
  ];
  if (seeded) {
    lines.push(`  demo data  seeded (${seeded.usersCreated} new users). Sign in with:`);
    for (const s of demoSignIns)
      lines.push(`    ${s.username.padEnd(8)} / ${s.password.padEnd(14)} ${s.displayName} (${s.role})`);
  }
  console.info(lines.join('\n'));

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.info(`${signal}: closing`);
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('error while closing', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('inbound: failed to start', error);
  process.exit(1);
});
