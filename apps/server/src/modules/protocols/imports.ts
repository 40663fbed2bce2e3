/**
 * Protocol files uploaded in the console's administration (issue 13): the upload is checked and kept,
 * then read in the background — a PDF in a child process (pdf-child.ts), at most one file at a time per
 * process — with its progress in pages, its outcome or its error stored on the job for the console to
 * poll. The job is in the database, so any process of a WORKERS=N server answers about it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  PROTOCOL_IMPORTS_IN_FLIGHT_MAX,
  PROTOCOL_UPLOAD_MAX_BYTES,
  type ProtocolImport,
  type ProtocolLibraryResponse,
  type ProtocolUploadQuery,
} from '@inbound/contract';
import type { Clock } from '../../clock.js';
import { AppError, badRequest, forbidden, notFound, tooManyRequests } from '../../errors.js';
import { isOrgAdmin, type Principal } from '../auth/principal.js';
import type { PdfReader } from './extract.js';
import type { ImportRow, ImportsRepository } from './imports.repository.js';
import type { ProtocolLibrary } from './library.js';

/** A job not moved on for this long belongs to a process that stopped: it is reported failed. */
const STALE_MS = 10 * 60 * 1000;
/** Progress is written at most this often (a 500-page packet would otherwise write 500 times). */
const PROGRESS_EVERY_MS = 500;
const RECENT_IMPORTS = 20;
export const INTERRUPTED = 'The import stopped when the server restarted. Upload the file again.';

export function uploadTooLarge(): AppError {
  return new AppError(
    413,
    'payload_too_large',
    `The file is larger than ${PROTOCOL_UPLOAD_MAX_BYTES / 1024 / 1024} MB.`,
  );
}

/** The Content-Type a browser may send for a file of this name ('' and octet-stream: it did not know). */
function acceptsType(fileName: string, contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === '' || type === 'application/octet-stream') return true;
  if (/\.pdf$/i.test(fileName)) return type === 'application/pdf';
  if (/\.(md|markdown)$/i.test(fileName)) return type === 'text/markdown' || type === 'text/plain';
  return type === 'text/html';
}

/** The bytes are what the name says: a PDF starts with its signature, text is UTF-8. */
function checkContent(fileName: string, bytes: Uint8Array): void {
  if (bytes.byteLength === 0) throw badRequest('The file is empty.');
  if (/\.pdf$/i.test(fileName)) {
    const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
    if (!head.includes('%PDF-')) throw badRequest(`${fileName} is not a PDF file.`);
    return;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest(`${fileName} is not UTF-8 text.`);
  }
}

function toImport(row: ImportRow): ProtocolImport {
  return {
    id: row.id,
    agencyId: row.agency_id,
    fileName: row.source_name,
    byteSize: row.byte_size,
    status: row.status as ProtocolImport['status'],
    pagesDone: row.pages_done,
    pagesTotal: row.pages_total,
    outcome: row.outcome as ProtocolImport['outcome'],
    title: row.title,
    message: row.message,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export function createProtocolImports(deps: {
  repo: ImportsRepository;
  library: ProtocolLibrary;
  clock: Clock;
  uploadsDir: string;
  readPdf: PdfReader;
  log: { warn: (detail: Record<string, unknown>, message: string) => void };
}) {
  const { repo, library, clock } = deps;
  const now = () => clock.now().toISOString();
  const uploadPath = (id: string) => path.join(deps.uploadsDir, id);
  /** This process's jobs, read one after another: a PDF reader is a process with up to 768 MB of heap. */
  let queue: Promise<void> = Promise.resolve();

  function authorize(principal: Principal, agencyId: string): void {
    if (!isOrgAdmin(principal) && !principal.administers.includes(agencyId)) throw forbidden();
  }

  async function failStale(agencyId: string | null): Promise<void> {
    await repo.failStale(agencyId, new Date(clock.now().getTime() - STALE_MS).toISOString(), INTERRUPTED, now());
  }

  async function run(row: ImportRow): Promise<void> {
    let lastWrite = 0;
    try {
      const bytes = await readFile(uploadPath(row.id));
      await repo.update(row.id, { status: 'reading', updated_at: now() });
      const outcome = await library.importFile(row.agency_id, row.source_name, bytes, {
        readPdf: deps.readPdf,
        onPage: (done, total) => {
          const at = Date.now();
          if (done < total && at - lastWrite < PROGRESS_EVERY_MS) return;
          lastWrite = at;
          void repo.update(row.id, { pages_done: done, pages_total: total, updated_at: now() }).catch(() => {});
        },
      });
      // The index is rebuilt now rather than on the next crew's question, so that question is not slow.
      await repo.update(row.id, { status: 'indexing', updated_at: now() });
      await library.index(row.agency_id);
      const finished = now();
      await repo.update(row.id, {
        status: 'done',
        outcome: outcome.status,
        title: outcome.title || null,
        ...(outcome.pages ? { pages_done: outcome.pages, pages_total: outcome.pages } : {}),
        updated_at: finished,
        finished_at: finished,
      });
    } catch (error) {
      // The library's own refusals name the file; a reader's error ("Invalid PDF structure.") gets said what failed.
      const reason = (error as Error).message || 'unknown error';
      const message = reason.startsWith(row.source_name) ? reason : `The file could not be read: ${reason}`;
      deps.log.warn({ importId: row.id, reason: message }, 'protocol import failed');
      const finished = now();
      await repo.update(row.id, { status: 'failed', message, updated_at: finished, finished_at: finished });
    } finally {
      await rm(uploadPath(row.id), { force: true });
    }
  }

  return {
    async upload(
      principal: Principal,
      query: ProtocolUploadQuery,
      contentType: string,
      bytes: Uint8Array,
    ): Promise<ProtocolImport> {
      authorize(principal, query.agencyId);
      if (!(await repo.agencyExists(query.agencyId))) throw notFound('Agency');
      if (bytes.byteLength > PROTOCOL_UPLOAD_MAX_BYTES) throw uploadTooLarge();
      if (!acceptsType(query.fileName, contentType)) {
        throw new AppError(415, 'unsupported_media_type', `${query.fileName} was sent as ${contentType || 'no type'}.`);
      }
      checkContent(query.fileName, bytes);
      await failStale(query.agencyId);
      if ((await repo.activeCount(query.agencyId)) >= PROTOCOL_IMPORTS_IN_FLIGHT_MAX) {
        throw tooManyRequests(
          `This agency is already importing ${PROTOCOL_IMPORTS_IN_FLIGHT_MAX} files. Wait for one to finish.`,
          10,
        );
      }
      const at = now();
      const row: ImportRow = {
        id: randomUUID(),
        agency_id: query.agencyId,
        source_name: query.fileName,
        byte_size: bytes.byteLength,
        status: 'queued',
        pages_done: 0,
        pages_total: null,
        outcome: null,
        title: null,
        message: null,
        created_by: principal.userId,
        created_at: at,
        updated_at: at,
        finished_at: null,
      };
      await mkdir(deps.uploadsDir, { recursive: true });
      await writeFile(uploadPath(row.id), bytes);
      await repo.insert(row);
      queue = queue.then(() => run(row));
      return toImport(row);
    },

    async get(principal: Principal, id: string): Promise<ProtocolImport> {
      const first = await repo.find(id);
      if (!first) throw notFound('Import');
      authorize(principal, first.agency_id);
      await failStale(first.agency_id);
      return toImport((await repo.find(id)) ?? first);
    },

    async list(principal: Principal, agencyId: string): Promise<ProtocolLibraryResponse> {
      authorize(principal, agencyId);
      await failStale(agencyId);
      const [documents, imports] = await Promise.all([repo.documents(agencyId), repo.recent(agencyId, RECENT_IMPORTS)]);
      return {
        documents: documents.map((row) => ({
          fileName: row.source_name,
          title: row.title,
          versionId: row.version_id,
          pages: row.page_count,
          byteSize: row.byte_size,
          importedAt: row.imported_at,
          versions: row.versions,
        })),
        imports: imports.map(toImport),
      };
    },

    /** Resolves when this process's jobs queued so far are finished (tests, shutdown). */
    idle: () => queue,
  };
}

export type ProtocolImports = ReturnType<typeof createProtocolImports>;
