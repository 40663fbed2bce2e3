/**
 * `npm run protocols:import -- --agency <id> <folder>`: imports every PDF, Markdown and HTML file under
 * the folder into the agency's protocol library (migrating the database first). A file already imported
 * with the same bytes is left as it is; a changed one becomes the new version.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../../clock.js';
import { loadConfig } from '../../config.js';
import { createDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createProtocolLibrary } from './library.js';
import { protocolFilesDir } from './protocols.module.js';
import { createProtocolsRepository } from './protocols.repository.js';

const { values, positionals } = parseArgs({ options: { agency: { type: 'string' } }, allowPositionals: true });
// npm runs workspace scripts in the workspace's folder; the folder is meant from where the command was typed.
const folder = positionals[0] && path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]);
if (!values.agency || !folder || positionals.length !== 1) {
  console.error('usage: npm run protocols:import -- --agency <agency id> <folder>');
  process.exit(2);
}

const config = loadConfig();
const database = createDatabase(config);
try {
  await migrateToLatest(database.db);
  const agency = await database.db
    .selectFrom('agencies')
    .select('name')
    .where('id', '=', values.agency)
    .executeTakeFirst();
  if (!agency) throw new Error(`no agency with id ${values.agency}`);
  const library = createProtocolLibrary({
    repo: createProtocolsRepository(database.db),
    clock: systemClock,
    filesDir: protocolFilesDir(config),
  });
  const started = performance.now();
  const outcomes = await library.importFolder(values.agency, folder);
  for (const o of outcomes) console.info(`${o.status.padEnd(9)} ${o.file}${o.pages ? ` (${o.pages} pages)` : ''}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.info(`${outcomes.length} files for ${agency.name} in ${seconds} s`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
