/**
 * Where the real protocol documents live for tests and benchmarks: `shared/data/protocols` next to (or
 * above) the checkout, or PROTOCOL_DATA_DIR. They are public county documents of unclear licence, so
 * they are read in place and never copied into the project (see its SOURCES.md).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export function protocolDataDir(): string | null {
  const candidates = [
    process.env.PROTOCOL_DATA_DIR,
    ...[3, 4, 5, 6, 7, 8].map((up) => path.resolve(here, ...Array<string>(up).fill('..'), 'shared/data/protocols')),
  ];
  return candidates.find((dir): dir is string => dir !== undefined && existsSync(path.join(dir, 'SOURCES.md'))) ?? null;
}

export const SAN_DIEGO = 'san-diego-county-ems-2025-2026';
export const LOS_ANGELES = 'la-county-ems-treatment-protocols';
export const SAN_DIEGO_PACKET = '2025-2026_Protocol_Packet.pdf';

/** The sets as imported: San Diego's packet, Los Angeles's PDF folder. */
export function importFolders(dataDir: string) {
  return { sd: path.join(dataDir, SAN_DIEGO), la: path.join(dataDir, LOS_ANGELES, 'pdf') };
}

const normalize = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:])/g, '$1')
    .trim()
    .toLowerCase();

/**
 * The independent ground truth of what a page prints: the pdftotext rendering shipped beside the PDFs
 * (form feed between pages), not the text our own importer read.
 */
export function groundTruthPages(dataDir: string) {
  const pages = new Map<string, string[]>();
  const split = (file: string) => readFileSync(file, 'utf8').split('\f').map(normalize);
  pages.set(SAN_DIEGO_PACKET, split(path.join(dataDir, SAN_DIEGO, '2025-2026_Protocol_Packet.txt')));
  const laText = path.join(dataDir, LOS_ANGELES, 'text');
  for (const file of readdirSync(laText)) pages.set(file.replace(/\.txt$/, '.pdf'), split(path.join(laText, file)));
  return {
    /** The page's text, spacing and case normalised ('' for a page that does not exist). */
    text: (file: string, page: number): string => pages.get(file)?.[page - 1] ?? '',
    /** Whether page `page` (1-based) of `file` prints every one of the phrases (spacing and case aside). */
    holds(file: string, page: number, phrases: string[]): boolean {
      const text = pages.get(file)?.[page - 1];
      return text !== undefined && phrases.every((phrase) => text.includes(normalize(phrase)));
    },
  };
}

export { normalize as normalizeForComparison };
