/**
 * docs/security/asvs.md maps each ASVS 5.0 chapter to files and tests; every path it names in backticks
 * must exist, and every chapter V1–V17 must have its row. A test moved or deleted without the mapping
 * following fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(ROOT, 'docs/security/asvs.md'), 'utf8');

/** Backticked words that are repository paths: a folder and a file name with an extension. */
export function pathsNamed(markdown: string): string[] {
  const found = [...markdown.matchAll(/`([^`\s]+)`/g)].map((match) => match[1] ?? '');
  return [
    ...new Set(
      found.filter(
        (word) => (/^[\w.-]+(\/[\w.-]+)*\.\w+$/.test(word) && word.includes('/')) || word === 'package-lock.json',
      ),
    ),
  ];
}

describe('docs/security/asvs.md', () => {
  const paths = pathsNamed(doc);

  it('names files, and the extractor finds paths only', () => {
    expect(paths.length).toBeGreaterThan(30);
    expect(pathsNamed('see `a/b.ts`, `npm run x`, `GET /v4/x` and `c.md`')).toEqual(['a/b.ts']);
  });

  it('has a row for every ASVS 5.0 chapter', () => {
    for (let n = 1; n <= 17; n += 1) expect(doc).toMatch(new RegExp(`^\\| V${n} `, 'm'));
  });

  it.each(paths)('names %s, which exists', (file) => {
    expect(existsSync(path.join(ROOT, file))).toBe(true);
  });
});
