/**
 * Where the shared real-world GPS captures are (tests only). They live in the project's shared folder
 * beside the repository (`../shared/data/gps` from a clone, further up from a worktree), never inside
 * it: their licences allow testing, not shipping. `INBOUND_GPS_DATA` points elsewhere.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function gpsDataDir(): string | null {
  const override = process.env.INBOUND_GPS_DATA;
  if (override) return existsSync(override) ? override : null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'shared', 'data', 'gps');
    if (existsSync(join(candidate, 'SOURCES.md'))) return candidate;
    const parent = resolve(dir, '..');
    if (parent === dir) return null;
    dir = parent;
  }
}

export const GPS_DATA_MISSING =
  'GPS captures not found (../shared/data/gps beside the repository, or INBOUND_GPS_DATA): skipping the real-data tests';
