/**
 * docs/ARCHITECTURE.md names the project's folders in its tree; each must exist. A folder moved or
 * deleted without the document following fails here.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');

/** The folders of the tree: the first word of each line of the ```text block that ends with a slash. */
export function foldersNamed(markdown: string): string[] {
  const tree = /```text\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  return tree
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((word) => word.endsWith('/'));
}

describe('docs/ARCHITECTURE.md', () => {
  const folders = foldersNamed(doc);

  it('has a tree of folders', () => {
    expect(folders.length).toBeGreaterThan(20);
    expect(foldersNamed('```text\npackages/client/src/   x\n  not-a-folder.ts\n```')).toEqual(['packages/client/src/']);
  });

  it.each(folders)('names %s, which exists', (folder) => {
    const at = path.join(ROOT, folder);
    expect(existsSync(at) && statSync(at).isDirectory()).toBe(true);
  });
});
