/**
 * `npm run migrate -- status` lists the migrations and whether each is applied; `npm run migrate --
 * down-to <name>` undoes those after it — the rollback of an upgrade by one version (docs/deploy.md,
 * "Upgrades"). Migrating up needs no command: the server does it on start.
 */
import { parseConfig } from '../../config.js';
import { createDatabase } from '../../db/database.js';
import { migrateDownTo, migrations, pendingMigrations } from '../../db/migrate.js';

const [command, name] = process.argv.slice(2);
const parsed = parseConfig(process.env);
if (!parsed.ok) {
  console.error(`inbound migrate: invalid configuration:\n${parsed.problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(2);
}
const database = createDatabase(parsed.config);
try {
  if (command === 'status') {
    const pending = new Set(await pendingMigrations(database.db));
    for (const known of Object.keys(migrations))
      console.info(`${pending.has(known) ? 'pending ' : 'applied '} ${known}`);
  } else if (command === 'down-to' && name) {
    const undone = await migrateDownTo(database.db, name);
    console.info(undone.length ? `undone: ${undone.join(', ')}` : `nothing after ${name} was applied`);
  } else {
    console.error('usage: npm run migrate -- status | down-to <migration name>');
    process.exitCode = 2;
  }
} catch (error) {
  console.error(`inbound migrate failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
