/**
 * Ids of rows that are only ever appended — case events, the security and read audit logs: UUIDv7
 * (RFC 9562), the time of creation in the first 48 bits and randomness after it.
 *
 * A random (v4) id puts each insert at a random place in the id's index, so every write of a commit
 * dirties an index page of its own, which the commit must write out (SQLite's WAL frames, PostgreSQL's
 * WAL and its full-page images after a checkpoint). Ids in time order land on the index's last page,
 * one page for every write of the commit. Decision 0046.
 *
 * Built on `randomUUID` rather than the `uuid` package's v7: `randomUUID` draws from a cached pool of
 * random bytes (0.08 µs an id here; this function 0.6 µs, where `uuid`'s v7 took 3.4 µs), and its
 * version-4 layout already carries the RFC's variant bits, so only the time and the version digit change.
 */
import { randomUUID } from 'node:crypto';

/** The id's first 15 characters, the same for every id of one millisecond. */
let prefixOf = { at: -1, prefix: '' };

export function timeOrderedId(now: number = Date.now()): string {
  if (now !== prefixOf.at) {
    const time = now.toString(16).padStart(12, '0');
    prefixOf = { at: now, prefix: `${time.slice(0, 8)}-${time.slice(8)}-7` };
  }
  // randomUUID: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx — all after its version digit is kept.
  return prefixOf.prefix + randomUUID().slice(15);
}
