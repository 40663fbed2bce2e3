/**
 * The text layer of a PDF, page by page, with pdfjs-dist's legacy build (the one that runs on Node 20).
 * Scanned pages without a text layer come back empty: the library says so at import rather than guessing.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** `onPage(done, total)` after each page: an upload's progress in the console. */
export async function pdfPages(bytes: Uint8Array, onPage?: (done: number, total: number) => void): Promise<string[]> {
  // Loaded only when a PDF is imported: its core-js polyfills replace globals such as JSON.stringify
  // (whose replacement overflows on deeply nested values), which a serving process must not inherit.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdfjs takes ownership of (detaches) the buffer it is given: hand it a copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : ' ');
      }
      pages.push(
        text
          .split('\n')
          .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
          .filter((line) => line !== '')
          .join('\n'),
      );
      page.cleanup();
      onPage?.(number, doc.numPages);
    }
    return pages;
  } finally {
    await task.destroy();
  }
}
