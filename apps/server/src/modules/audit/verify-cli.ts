/**
 * `npm run audit:verify`: walks every audit hash chain of the configured database (audit-chain.ts) and
 * reports the first broken link of each broken chain. Exit 0: every chain holds (the heads are printed,
 * to be kept elsewhere as an anchor); 1: a chain is broken; 2: the configuration is invalid.
 */
import { parseConfig } from '../../config.js';
import { createDatabase } from '../../db/database.js';
import { verifyAuditChains } from './audit-chain.js';

const parsed = parseConfig(process.env);
if (!parsed.ok) {
  console.error(`inbound audit:verify: invalid configuration:\n${parsed.problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(2);
}
const database = createDatabase(parsed.config);
try {
  const result = await verifyAuditChains(database.db);
  if (result.problems.length === 0) {
    console.info(`audit chains hold: ${result.rows} rows in ${result.chains.length} chains`);
    for (const head of result.chains) console.info(`  ${head.chain} #${head.seq} ${head.hash}`);
  } else {
    for (const problem of result.problems)
      console.error(`BROKEN ${problem.table} chain ${problem.chain} at row ${problem.seq}: ${problem.problem}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`inbound audit:verify failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
