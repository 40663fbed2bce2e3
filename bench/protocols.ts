/**
 * The protocol assistant (issue 13, "Figures"):
 * - import of both real sets (San Diego's packet, Los Angeles's 37 PDFs) with `npm run protocols:import`
 *   into a fresh seeded DATA_DIR — target ≤ 60 s for both;
 * - retrieval over the 55-question set through `POST /questions/`: the first cited page prints the
 *   answer (top-1) — target ≥ 90 % — or one of the first three (top-3) — target ≥ 98 %; pages are judged
 *   against the pdftotext rendering shipped with the data, not our importer's reading;
 * - first streamed character of `POST /questions/` (header `streaming: true`, no model) under an open
 *   loop of QUESTIONS_PER_S for 10 s — target ≤ 300 ms — with the server's CPU per question.
 * Import and latency are the median of three runs (BENCH_RUNS); retrieval is deterministic, run once.
 * Skipped, with a message, where the protocol data is absent. Prints figures; never asserts.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { authorizationHeader, routes, type QuestionResult, type SignInResponse } from '@inbound/contract';
import {
  groundTruthPages,
  importFolders,
  protocolDataDir,
} from '../apps/server/src/modules/protocols/testing/protocol-data';
import { QUESTION_SET, type SetAgency } from '../apps/server/src/modules/protocols/testing/question-set';
import { freePort, REPO_ROOT, startServer } from './lib/server';

const AGENCY: Record<SetAgency, string> = { sd: 'agency-riverside-ems', la: 'agency-lakeside-fire-rescue' };
const ASKER: Record<SetAgency, string> = { sd: 'medic2', la: 'medic3' };
const IMPORT_TARGET_S = 60;
const TOP1_TARGET = 0.9;
const TOP3_TARGET = 0.98;
const FIRST_CHAR_TARGET_MS = 300;
const QUESTIONS_PER_S = 5;
const LOAD_SECONDS = 10;

export interface ProtocolsReport {
  loadAverage1m: number;
  importSeconds: number[];
  importCpuSeconds: number[];
  retrieval: { questions: number; top1: number; top3: number };
  firstCharacterMs: { p50: number; p95: number; max: number; cpuMsPerQuestion: number }[];
}

function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

const importArgs = (agency: string, folder: string) => [
  'tsx',
  'apps/server/src/modules/protocols/import-cli.ts',
  '--agency',
  agency,
  folder,
];

/**
 * CPU seconds of this process's finished children and their descendants (Linux: cutime + cstime of
 * /proc/self/stat): the import's CPU, npx and tsx start-up included, whatever else the machine runs.
 */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of proc(5); `fields` starts at field 3. Clock ticks of 1/100 s on Linux.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** A seeded DATA_DIR without the demo protocols (not timed), then both imports (timed: wall and CPU). */
async function timedImport(
  dataDir: string,
  folders: { sd: string; la: string },
): Promise<{ seconds: number; cpuSeconds: number }> {
  await run('npx', ['tsx', 'apps/server/src/seed/run.ts', '--without-demo-protocols'], { DATA_DIR: dataDir });
  const started = performance.now();
  const cpuBefore = childrenCpuSeconds();
  await run('npx', importArgs(AGENCY.sd, folders.sd), { DATA_DIR: dataDir });
  await run('npx', importArgs(AGENCY.la, folders.la), { DATA_DIR: dataDir });
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: childrenCpuSeconds() - cpuBefore };
}

async function signIn(url: string, username: string): Promise<string> {
  const res = await fetch(url + routes.signIn.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: `demo-${username}`, twiageClient: 'ems', platform: 'web' }),
  });
  return ((await res.json()) as SignInResponse).authorizationToken.token;
}

const body = (agency: SetAgency, question: string) =>
  JSON.stringify({
    question,
    responseType: 'summary',
    questionUuid: crypto.randomUUID(),
    organization: { id: AGENCY[agency], type: 'emsAgency' },
  });

/** Milliseconds from sending the question to the first byte of the streamed answer. */
function firstCharacter(url: string, token: string, agency: SetAgency, question: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = body(agency, question);
    const started = performance.now();
    const req = request(
      `${url}/questions/`,
      {
        method: 'POST',
        headers: {
          authorization: authorizationHeader(token),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          streaming: 'true',
        },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        res.once('data', () => resolve(performance.now() - started));
        res.resume();
      },
    );
    req.once('error', reject);
    req.end(payload);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const median = (values: number[]) => percentile(values, 50);

export async function runProtocols(runs = Number(process.env.BENCH_RUNS ?? 3)): Promise<ProtocolsReport | null> {
  const data = protocolDataDir();
  if (!data) {
    console.info('protocols: shared/data/protocols not found (or PROTOCOL_DATA_DIR): skipped');
    return null;
  }
  const folders = importFolders(data);
  const truth = groundTruthPages(data);
  const report: ProtocolsReport = {
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    importSeconds: [],
    importCpuSeconds: [],
    retrieval: { questions: QUESTION_SET.length, top1: 0, top3: 0 },
    firstCharacterMs: [],
  };
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inbound-bench-protocols-'));
    try {
      const timed = await timedImport(dataDir, folders);
      report.importSeconds.push(timed.seconds);
      report.importCpuSeconds.push(timed.cpuSeconds);
      // BENCH_PROTOCOLS_IMPORT_ONLY=1: the import figure alone (no server, no questions).
      if (i < runs - 1 || process.env.BENCH_PROTOCOLS_IMPORT_ONLY === '1') continue;
      // The last run's library serves the retrieval and latency figures.
      const server = await startServer(await freePort(), { DATA_DIR: dataDir, SEED_DEMO: 'false' });
      try {
        const tokens = { sd: await signIn(server.url, ASKER.sd), la: await signIn(server.url, ASKER.la) };
        const files = await versionFiles(dataDir);
        for (const q of QUESTION_SET) {
          const res = await fetch(`${server.url}/questions/`, {
            method: 'POST',
            headers: { authorization: authorizationHeader(tokens[q.agency]), 'content-type': 'application/json' },
            body: body(q.agency, q.question),
          });
          const result = (await res.json()) as QuestionResult;
          const holds = result.pageLinks.map((link) => {
            const version = decodeURIComponent(/documents\/([^/]+)\/file/.exec(link.url)![1]!);
            return truth.holds(files.get(version) ?? '', link.page, q.expect);
          });
          if (holds[0]) report.retrieval.top1++;
          if (holds.slice(0, 3).some(Boolean)) report.retrieval.top3++;
        }
        for (let r = 0; r < runs; r++) {
          const cpuBefore = server.cpuSeconds();
          const pending: Promise<number>[] = [];
          const total = QUESTIONS_PER_S * LOAD_SECONDS;
          const started = performance.now();
          for (let n = 0; n < total; n++) {
            // Open loop: each question leaves at its time, whether or not earlier ones were answered.
            const due = started + (n * 1000) / QUESTIONS_PER_S;
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
            const q = QUESTION_SET[n % QUESTION_SET.length]!;
            pending.push(firstCharacter(server.url, tokens[q.agency], q.agency, q.question));
          }
          const times = await Promise.all(pending);
          report.firstCharacterMs.push({
            p50: percentile(times, 50),
            p95: percentile(times, 95),
            max: Math.max(...times),
            cpuMsPerQuestion: ((server.cpuSeconds() - cpuBefore) * 1000) / total,
          });
        }
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return report;
}

/** Version id → file name, read from the library's SQLite file. */
async function versionFiles(dataDir: string): Promise<Map<string, string>> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'inbound.db'), { readonly: true });
  try {
    const rows = db
      .prepare('select v.id, d.source_name from protocol_versions v join protocol_documents d on d.id = v.document_id')
      .all() as { id: string; source_name: string }[];
    return new Map(rows.map((row) => [row.id, row.source_name]));
  } finally {
    db.close();
  }
}

export function printProtocols(report: ProtocolsReport | null): void {
  if (!report) return;
  const pct = (n: number) => `${((100 * n) / report.retrieval.questions).toFixed(1)} %`;
  const imp = median(report.importSeconds);
  const p50 = median(report.firstCharacterMs.map((r) => r.p50));
  const p95 = median(report.firstCharacterMs.map((r) => r.p95));
  const cpu = median(report.firstCharacterMs.map((r) => r.cpuMsPerQuestion));
  console.info(
    `\nprotocol assistant (load average ${report.loadAverage1m} at start; median of ${report.importSeconds.length} runs)`,
  );
  console.info(
    `  import both sets     ${imp.toFixed(1)} s   (runs ${report.importSeconds.map((s) => s.toFixed(1)).join(', ')})   target ≤ ${IMPORT_TARGET_S} s;  CPU ${median(report.importCpuSeconds).toFixed(1)} s (runs ${report.importCpuSeconds.map((s) => s.toFixed(1)).join(', ')})`,
  );
  console.info(
    `  retrieval top-1      ${pct(report.retrieval.top1)} (${report.retrieval.top1}/${report.retrieval.questions})   target ≥ ${TOP1_TARGET * 100} %`,
  );
  console.info(
    `  retrieval top-3      ${pct(report.retrieval.top3)} (${report.retrieval.top3}/${report.retrieval.questions})   target ≥ ${TOP3_TARGET * 100} %`,
  );
  console.info(
    `  first streamed char  p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms at ${QUESTIONS_PER_S} questions/s open loop   target ≤ ${FIRST_CHAR_TARGET_MS} ms;  server CPU ${cpu.toFixed(1)} ms/question`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printProtocols(await runProtocols());
}
