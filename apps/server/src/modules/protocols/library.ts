/**
 * Importing protocol files into an agency's library and keeping one search index per agency in memory.
 * A file is identified by its name within the library: importing a changed file adds a version and
 * retires the old one; importing the same bytes again changes nothing. The files themselves are kept
 * by content hash under DATA_DIR/protocols, so every version ever cited can still be opened.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../clock.js';
import { extractDocument, fileKind, type PdfReader } from './extract.js';
import type { ProtocolsRepository } from './protocols.repository.js';
import { buildLibraryIndex, type LibraryIndex } from './retrieval.js';

/** A single file larger than this is refused: protocol packets are a few MB. */
export const PROTOCOL_FILE_MAX_BYTES = 50 * 1024 * 1024;

export type ImportOutcome = { file: string; status: 'added' | 'updated' | 'unchanged'; pages: number; title: string };

export function createProtocolLibrary({
  repo,
  clock,
  filesDir,
}: {
  repo: ProtocolsRepository;
  clock: Clock;
  filesDir: string;
}) {
  const indexes = new Map<string, { revision: string; index: Promise<LibraryIndex> }>();

  const filePath = (sha256: string) => path.join(filesDir, sha256);

  async function importFile(
    agencyId: string,
    sourceName: string,
    bytes: Uint8Array,
    /** How a PDF is read (a serving process reads it in a child: pdf-child.ts), and the progress in pages. */
    options: { readPdf?: PdfReader; onPage?: (done: number, total: number) => void } = {},
  ): Promise<ImportOutcome> {
    if (bytes.byteLength > PROTOCOL_FILE_MAX_BYTES) throw new Error(`${sourceName}: larger than 50 MB`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const current = await repo.currentVersion(agencyId, sourceName);
    if (current?.sha256 === sha256) return { file: sourceName, status: 'unchanged', pages: 0, title: '' };
    const document = await extractDocument(sourceName, bytes, options);
    if (document.pages.every((page) => page.text.trim() === '')) {
      throw new Error(`${sourceName}: no text layer (a scanned document cannot be searched)`);
    }
    await mkdir(filesDir, { recursive: true });
    await writeFile(filePath(sha256), bytes);
    const versionId = randomUUID();
    await repo.addVersion({
      id: versionId,
      agencyId,
      sourceName,
      title: document.title,
      sha256,
      contentType: document.contentType,
      byteSize: bytes.byteLength,
      at: clock.now().toISOString(),
      passages: document.pages.map((page) => ({
        id: `${versionId}-${page.page}`,
        documentTitle: page.documentTitle,
        protocolNumber: page.protocolNumber,
        page: page.page,
        printedPage: page.printedPage,
        text: page.text,
      })),
    });
    indexes.delete(agencyId);
    return {
      file: sourceName,
      status: current ? 'updated' : 'added',
      pages: document.pages.length,
      title: document.title,
    };
  }

  return {
    importFile,

    /** Every PDF, Markdown and HTML file under `folder` (recursively), named by its path within it. */
    async importFolder(agencyId: string, folder: string): Promise<ImportOutcome[]> {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && fileKind(entry.name) !== null)
        .map((entry) => path.join(entry.parentPath, entry.name))
        .sort();
      const outcomes: ImportOutcome[] = [];
      for (const file of files) {
        outcomes.push(
          await importFile(agencyId, path.relative(folder, file).split(path.sep).join('/'), await readFile(file)),
        );
      }
      return outcomes;
    },

    /** The agency's index, rebuilt when its library changed (also by another process: the revision is read). */
    async index(agencyId: string): Promise<LibraryIndex> {
      const revision = await repo.libraryRevision(agencyId);
      const cached = indexes.get(agencyId);
      if (cached?.revision === revision) return cached.index;
      const index = repo.currentPassages(agencyId).then(buildLibraryIndex);
      indexes.set(agencyId, { revision, index });
      index.catch(() => indexes.delete(agencyId));
      return index;
    },

    readFile: (sha256: string) => readFile(filePath(sha256)),
  };
}

export type ProtocolLibrary = ReturnType<typeof createProtocolLibrary>;
