/**
 * Reading a PDF's text in a child process. pdfjs-dist's legacy build installs core-js polyfills that
 * replace globals process-wide (a slow Array.prototype.push, a JSON.stringify that overflows on deep
 * values): a serving process must never load it. The console's uploads are read here instead, with the
 * child's heap and time bounded, and its progress (pages read) passed back page by page.
 *
 * Run as a file, this module is the child; imported, it is the parent's side (`readPdfInChild`).
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

type ToChild = { bytes: Uint8Array };
type FromChild =
  | { type: 'progress'; done: number; total: number }
  | { type: 'pages'; pages: string[] }
  | { type: 'error'; message: string };

export interface ChildLimits {
  /** The reader is killed after this long. */
  timeoutMs: number;
  /** V8 heap of the reader, MB. */
  memoryMb: number;
}

export const PDF_CHILD_LIMITS: ChildLimits = { timeoutMs: 180_000, memoryMb: 768 };

const here = fileURLToPath(import.meta.url);
// The server runs from its TypeScript sources: the child loads them through the same tsx.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export function readPdfInChild(
  bytes: Uint8Array,
  onPage?: (done: number, total: number) => void,
  limits: ChildLimits = PDF_CHILD_LIMITS,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = fork(here, [], {
      execArgv: ['--import', tsxLoader, `--max-old-space-size=${limits.memoryMb}`],
      // Structured clone: the bytes go over as bytes, not as a JSON array of numbers.
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-400)));
    let settled = false;
    const settle = (error: Error | null, pages?: string[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(pages ?? []);
    };
    const timer = setTimeout(
      () => settle(new Error(`reading the PDF took longer than ${Math.round(limits.timeoutMs / 1000)} s`)),
      limits.timeoutMs,
    );
    child.on('message', (message: FromChild) => {
      if (message.type === 'progress') onPage?.(message.done, message.total);
      else if (message.type === 'pages') settle(null, message.pages);
      else settle(new Error(message.message));
    });
    child.once('error', (error) => settle(error));
    child.once('exit', (code, signal) =>
      settle(
        new Error(
          `the PDF reader stopped (${signal ?? `exit ${code}`})${/heap out of memory/i.test(stderr) ? ': the file needs more memory than allowed' : ''}`,
        ),
      ),
    );
    child.send({ bytes } satisfies ToChild);
  });
}

// ---- the child ------------------------------------------------------------------------------------
if (process.argv[1] && fileURLToPath(pathToFileURL(process.argv[1])) === here && process.send) {
  // The server that asked went away: nobody waits for the pages.
  process.once('disconnect', () => process.exit(0));
  const send = (message: FromChild) =>
    new Promise<void>((resolve) => process.send?.(message, undefined, undefined, () => resolve()));
  process.once('message', (message: ToChild) => {
    void (async () => {
      try {
        const { pdfPages } = await import('./pdf-text.js');
        const pages = await pdfPages(message.bytes, (done, total) => void send({ type: 'progress', done, total }));
        await send({ type: 'pages', pages });
      } catch (error) {
        await send({ type: 'error', message: (error as Error).message });
      }
      process.disconnect();
    })();
  });
}
