/** `npm run seed -w @inbound/server`: migrate and seed the configured database (and the demo protocol library), then exit. */
import { loadConfig } from '../config.js';
import { systemClock } from '../clock.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { demoSignIns, seedDemoData } from './seed.js';
import { seedDemoProtocols } from '../modules/protocols/demo-library.js';
import { protocolFilesDir } from '../modules/protocols/protocols.module.js';

const config = loadConfig();
const database = createDatabase(config);
try {
  await migrateToLatest(database.db);
  const result = await seedDemoData(database.db, { clock: systemClock, hashPassword });
  // `-- --without-demo-protocols`: for a library of real protocols only (bench/protocols.ts).
  if (!process.argv.includes('--without-demo-protocols')) {
    await seedDemoProtocols(database.db, systemClock, protocolFilesDir(config));
  }
  console.info(`seeded ${database.dialect} at ${database.location} (${result.usersCreated} new users)`);
  for (const s of demoSignIns) console.info(`  ${s.username.padEnd(8)} ${s.password}`);
} finally {
  await database.close();
}
