/**
 * Files at rest (issue 17 item 8): everything the server writes — the SQLite database and its WAL, the
 * secrets, the media — is readable by the server's own user only. The process umask makes every new
 * file 0600 and folder 0700; what an older version left more open in DATA_DIR is tightened at start.
 * Encryption of the disk itself is the host's (docs/security/data-at-rest.md).
 */
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const PRIVATE_UMASK = 0o077;

/** Sets the umask for the whole process, then makes `dirs` (created if missing) and all inside them private. */
export function securePrivateFiles(dirs: readonly string[]): void {
  process.umask(PRIVATE_UMASK);
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const full = path.join(entry.parentPath, entry.name);
      if (entry.isDirectory()) chmodSync(full, 0o700);
      else if (entry.isFile()) chmodSync(full, 0o600);
    }
  }
}
