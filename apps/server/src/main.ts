/**
 * Starts the server: reads the config (refusing to start, with every problem listed, when it is
 * wrong), migrates, seeds the demo data when SEED_DEMO=true, listens, and says what it runs on.
 *
 * WORKERS=N (N > 1, PostgreSQL + Redis only) runs N server processes behind the one port with
 * node:cluster (docs/decisions/0015-several-processes.md): the primary does everything that must happen
 * once — migrations, seed, the JWT secret and VAPID keys in DATA_DIR — then forks the workers, which
 * only serve. The primary replaces a worker that dies, and on SIGHUP restarts them one after the other
 * (a new one listening before the old one drains), which is how an upgrade rolls without a gap.
 *
 * SIGTERM/SIGINT drain (drain.ts): stop accepting, close live sockets with "restart" so clients resume
 * on another process, let in-flight requests finish, then close the database.
 */
import cluster, { type Worker } from 'node:cluster';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { PRIVATE_UMASK, securePrivateFiles } from './data-dir.js';
import { createDatabase, redactUrl } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { hashPassword } from './modules/auth/passwords.js';
import { loadOrCreateVapidKeys } from './modules/push/vapid-keys.js';
import { demoSignIns, seedDemoData } from './seed/seed.js';
import { seedDemoProtocols } from './modules/protocols/demo-library.js';
import { protocolFilesDir } from './modules/protocols/protocols.module.js';
import { serveClusterMetrics } from './modules/ops/cluster-metrics.js';

/** Conversions fail without ffmpeg (uploads are still kept): say so at start rather than per upload. */
function ffmpegLine(ffmpeg: string, jobs: number): string {
  const found = spawnSync(ffmpeg, ['-version'], { stdio: 'ignore' }).status === 0;
  return found
    ? `converted by ${ffmpeg}, ${jobs} at a time`
    : `${ffmpeg} NOT FOUND: videos and voice memos stay unconverted (run scripts/ensure-system-packages.sh ffmpeg)`;
}

const describeLimit = (limit: { max: number; windowMs: number }) =>
  `${limit.max}/${Math.round(limit.windowMs / 1000)} s`;

function readConfig(): Config & { jwtSecret: string } {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`inbound: cannot start.\n${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

/** Migrations and the demo data: once per start, before any process serves. */
async function prepare(config: Config & { jwtSecret: string }) {
  securePrivateFiles([config.dataDir, ...(config.media.s3 ? [] : [config.media.dir])]);
  const database = createDatabase(config);
  const applied = await migrateToLatest(database.db);
  const seeded = config.seedDemo ? await seedDemoData(database.db, { clock: systemClock, hashPassword }) : null;
  if (seeded) await seedDemoProtocols(database.db, systemClock, protocolFilesDir(config));
  return { database, applied, seeded };
}

function describe(
  config: Config,
  address: string,
  database: { dialect: string; location: string },
  applied: string[],
  seeded: { usersCreated: number } | null,
): string {
  const url = config.publicUrl ?? `http://localhost:${config.port}`;
  const lines = [
    `${config.brandName} server listening on ${address} — open ${url}`,
    `  processes  ${config.workers === 1 ? '1' : `${config.workers} workers (node:cluster, primary pid ${process.pid})`}`,
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
  return lines.join('\n');
}

/** One process that serves: its own app and database connections. Drains on SIGTERM/SIGINT. */
async function serve(config: Config & { jwtSecret: string }, prepared: Awaited<ReturnType<typeof prepare>> | null) {
  const database = prepared?.database ?? createDatabase(config);
  const app = await buildApp(config, { database, ...(cluster.worker ? { worker: cluster.worker.id } : {}) });
  const address = await app.listen({ port: config.port, host: config.host });
  if (prepared) console.info(describe(config, address, database, prepared.applied, prepared.seeded));

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, pid: process.pid }, 'draining');
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

/** The cluster's primary: prepares once, forks the workers, replaces the dead, rolls restarts, drains. */
async function supervise(config: Config & { jwtSecret: string }) {
  const prepared = await prepare(config);
  await prepared.database.close();
  // Made here, once: workers racing to create them would each write a different key.
  loadOrCreateVapidKeys(config.dataDir);

  let stopping = false;
  const replacing = new Set<Worker>();
  const listening = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      worker.once('listening', () => resolve());
      worker.once('exit', (code) =>
        reject(new Error(`worker ${worker.process.pid} exited (${code}) before listening`)),
      );
    });
  const exited = (worker: Worker) =>
    new Promise<void>((resolve) => {
      if (worker.isDead()) resolve();
      else worker.once('exit', () => resolve());
    });
  const fork = () => cluster.fork();
  // One /metrics for the whole server: the worker scraped asks here, every worker answers (cluster-metrics.ts).
  serveClusterMetrics();

  cluster.on('exit', (worker, code, signal) => {
    if (stopping || replacing.has(worker)) return;
    console.error(`inbound: worker ${worker.process.pid} died (${signal ?? code}); starting another`);
    fork();
  });

  const first = Array.from({ length: config.workers }, fork);
  await Promise.all(first.map(listening));
  console.info(describe(config, `${config.host}:${config.port}`, prepared.database, prepared.applied, prepared.seeded));

  let rolling: Promise<void> | null = null;
  const rollingRestart = async () => {
    for (const old of Object.values(cluster.workers ?? {})) {
      if (!old || stopping) continue;
      // The new process listens before the old one stops accepting: the port is never without a worker.
      await listening(fork());
      replacing.add(old);
      old.process.kill('SIGTERM');
      await exited(old);
      replacing.delete(old);
      console.info(`inbound: worker ${old.process.pid} replaced`);
    }
  };
  process.on('SIGHUP', () => {
    if (rolling || stopping) return;
    console.info('SIGHUP: restarting the workers one after the other');
    rolling = rollingRestart()
      .catch((error: unknown) => console.error('inbound: rolling restart failed', error))
      .finally(() => {
        rolling = null;
      });
  });

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.info(`${signal}: draining ${Object.keys(cluster.workers ?? {}).length} workers`);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    for (const worker of workers) worker.process.kill('SIGTERM');
    void Promise.all(workers.map(exited)).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

async function main(): Promise<void> {
  // Before anything is written (the generated JWT secret, the database): new files are the server's only.
  process.umask(PRIVATE_UMASK);
  const config = readConfig();
  if (config.workers === 1) return serve(config, await prepare(config));
  if (cluster.isPrimary) return supervise(config);
  return serve(config, null);
}

main().catch((error: unknown) => {
  console.error('inbound: failed to start', error);
  process.exit(1);
});
