import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Removes the main server's temporary DATA_DIR (made in playwright.config.ts) after the run. */
export default function globalTeardown(): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir && path.dirname(dataDir) === tmpdir() && path.basename(dataDir).startsWith('inbound-e2e-')) {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
