/**
 * The demo agencies' protocol library: a few short protocols of our own writing (demo-library/*.md),
 * so the assistant can be tried without real protocols. Imported when the demo data is seeded;
 * importing the same files again changes nothing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DB } from '../../db/schema.js';
import { IDS } from '../../seed/demo-data.js';
import { createProtocolLibrary } from './library.js';
import { createProtocolsRepository } from './protocols.repository.js';

export const DEMO_LIBRARY_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-library');

export async function seedDemoProtocols(db: Kysely<DB>, clock: Clock, filesDir: string): Promise<void> {
  const library = createProtocolLibrary({ repo: createProtocolsRepository(db), clock, filesDir });
  for (const agencyId of Object.values(IDS.agencies)) await library.importFolder(agencyId, DEMO_LIBRARY_DIR);
}
