/**
 * A protocol document → its pages, each with the protocol's title and number and the page as printed.
 * PDF pages are the printed pages (text layer, pdf-text.ts); Markdown and HTML have no pages, so each
 * top-level section is one "page", cited by its heading. Headers are read the way agencies print them:
 * "TREATMENT PROTOCOL S-144 / STROKE … Page 1 of 2" (San Diego), "Treatment Protocol: CARDIAC ARREST
 * Ref. No. 1210 … PAGE 2 OF 5" (Los Angeles), "SUBJECT: … No. S-104". A page without its own header
 * keeps the last protocol seen in the same file.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { pdfPages } from './pdf-text.js';

export type ProtocolFileKind = 'pdf' | 'markdown' | 'html';

export interface ExtractedPage {
  /** 1-based page of the file (for Markdown/HTML: the section). */
  page: number;
  documentTitle: string;
  protocolNumber: string | null;
  printedPage: string;
  text: string;
}

export interface ExtractedDocument {
  title: string;
  contentType: string;
  pages: ExtractedPage[];
}

export const CONTENT_TYPES: Record<ProtocolFileKind, string> = {
  pdf: 'application/pdf',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

export function fileKind(fileName: string): ProtocolFileKind | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.pdf')) return 'pdf';
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return 'markdown';
  if (lower.endsWith('.html') || lower.endsWith('.htm')) return 'html';
  return null;
}

/** "1210-CardiacArrest.pdf" → "1210 Cardiac Arrest": the title of last resort. */
export function titleFromFileName(fileName: string): string {
  return fileName
    .replace(/\.[a-z]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
}

const NUMBER = String.raw`([A-Z]{0,3}-?\d{2,4}(?:\.\d+)?[A-Z]?(?:-[A-Z])?)`;
const PROTOCOL_NUMBER = new RegExp(
  String.raw`(?:TREATMENT PROTOCOL|Protocol:?|No\.|Number|REFERENCE NO\.?)\s*${NUMBER}(?![\w/])`,
  'i',
);
const PRINTED_PAGE = /\bPage:?\s*(\d+)\s+of\s+(\d+)/i;
const TITLE_PATTERNS: ((lines: string[]) => string | null)[] = [
  (lines) => firstMatch(lines, /Treatment Protocol:\s*(.+?)\s+Ref\.?\s*No/i),
  (lines) => firstMatch(lines, /SUBJECT:\s*(.+?)\s+(?:REFERENCE NO\.?|Date:?)\s/i),
  (lines) => {
    const at = lines.findIndex((line) => /^(PEDIATRIC )?TREATMENT PROTOCOL\s+[A-Z]{1,3}-\d/i.test(line));
    const next = at >= 0 ? lines[at + 1] : undefined;
    if (next === undefined) return null;
    return /^PEDIATRIC/i.test(lines[at] ?? '') ? `PEDIATRIC ${next}` : next;
  },
];

function firstMatch(lines: string[], pattern: RegExp): string | null {
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match?.[1]) return match[1].replace(/[–—-]\s*$/, '').trim();
  }
  return null;
}

/** Reads the header lines of each PDF page; titles are kept per protocol number across its pages. */
export function describePdfPages(fileName: string, texts: string[]): ExtractedPage[] {
  const titles = new Map<string, string>();
  let protocolNumber: string | null = null;
  return texts.map((text, index) => {
    const head = text.split('\n').slice(0, 8);
    const found = firstMatch(head, PROTOCOL_NUMBER);
    if (found) protocolNumber = found.toUpperCase();
    let title = TITLE_PATTERNS.reduce<string | null>((seen, read) => seen ?? read(head), null);
    // LA pediatric protocols print the adult title; their number ends in -P.
    if (title && protocolNumber?.endsWith('-P') && !/PEDIATRIC/i.test(title)) title = `PEDIATRIC ${title}`;
    const key = protocolNumber ?? '';
    if (title && !titles.has(key)) titles.set(key, title);
    const printed = head.map((line) => PRINTED_PAGE.exec(line)).find((match) => match !== null);
    return {
      page: index + 1,
      documentTitle: titles.get(key) ?? titleFromFileName(fileName),
      protocolNumber,
      printedPage: printed ? `Page ${printed[1]} of ${printed[2]}` : `Page ${index + 1}`,
      text,
    };
  });
}

/**
 * Markdown: `# Title` names the document, an optional `Protocol: X-1` line its number, and each `## `
 * heading starts a section (a citable "page").
 */
export function markdownPages(fileName: string, source: string): { title: string; pages: ExtractedPage[] } {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const title =
    lines
      .find((line) => /^#\s+/.test(line))
      ?.replace(/^#\s+/, '')
      .trim() ?? titleFromFileName(fileName);
  const numberLine = lines.find((line) => /^(?:\*\*)?Protocol(?: number)?:?(?:\*\*)?\s+\S+/i.test(line));
  const protocolNumber = numberLine?.replace(/^(?:\*\*)?Protocol(?: number)?:?(?:\*\*)?\s+/i, '').trim() ?? null;
  const sections: { heading: string; lines: string[] }[] = [{ heading: title, lines: [] }];
  for (const line of lines) {
    if (/^##\s+/.test(line)) sections.push({ heading: line.replace(/^##\s+/, '').trim(), lines: [line] });
    else sections[sections.length - 1]!.lines.push(line);
  }
  const pages = sections
    .map((section) => ({ heading: section.heading, text: section.lines.join('\n').trim() }))
    .filter((section) => section.text.replace(/^#.*$/gm, '').trim() !== '')
    .map((section, index) => ({
      page: index + 1,
      documentTitle: title,
      protocolNumber,
      printedPage: `Section ${index + 1}: ${section.heading}`,
      text: section.text,
    }));
  return { title, pages };
}

type Parse5Node = DefaultTreeAdapterMap['node'];
const BLOCK = new Set([
  'p',
  'div',
  'li',
  'tr',
  'br',
  'section',
  'article',
  'table',
  'ul',
  'ol',
  'h3',
  'h4',
  'h5',
  'h6',
]);
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head']);

/** HTML → the same Markdown shape (h1 → `#`, h2 → `##`, blocks → lines), then as Markdown. */
export function htmlToMarkdown(source: string): string {
  let out = '';
  const walk = (node: Parse5Node) => {
    if (node.nodeName === '#text' && 'value' in node) {
      out += node.value.replace(/\s+/g, ' ');
      return;
    }
    if (!('childNodes' in node) || SKIP.has(node.nodeName)) return;
    const heading = node.nodeName === 'h1' ? '# ' : node.nodeName === 'h2' ? '## ' : null;
    if (heading) out += `\n${heading}`;
    else if (BLOCK.has(node.nodeName)) out += '\n';
    for (const child of node.childNodes) walk(child);
    if (heading || BLOCK.has(node.nodeName)) out += '\n';
  };
  for (const child of parse(source).childNodes) walk(child);
  return out
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** A PDF's text layer, page by page; in another process when the caller is a serving process (pdf-child.ts). */
export type PdfReader = (bytes: Uint8Array, onPage?: (done: number, total: number) => void) => Promise<string[]>;

export async function extractDocument(
  fileName: string,
  bytes: Uint8Array,
  options: { readPdf?: PdfReader; onPage?: (done: number, total: number) => void } = {},
): Promise<ExtractedDocument> {
  const kind = fileKind(fileName);
  if (kind === 'pdf') {
    const pages = describePdfPages(fileName, await (options.readPdf ?? pdfPages)(bytes, options.onPage));
    const numbers = new Set(pages.map((page) => page.protocolNumber));
    // A file holding one protocol is titled by it; a packet of many by its file name.
    const title = numbers.size === 1 && pages[0] ? pages[0].documentTitle : titleFromFileName(fileName);
    return { title, contentType: CONTENT_TYPES.pdf, pages };
  }
  if (kind === 'markdown' || kind === 'html') {
    const text = new TextDecoder().decode(bytes);
    const { title, pages } = markdownPages(fileName, kind === 'html' ? htmlToMarkdown(text) : text);
    options.onPage?.(pages.length, pages.length);
    return { title, contentType: CONTENT_TYPES[kind], pages };
  }
  throw new Error(`${fileName}: not a PDF, Markdown or HTML file`);
}
