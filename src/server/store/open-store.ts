import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LookupStore } from './store';
import { SqliteStore } from './sqlite/sqlite-store';
import { buildSeedDataSet } from '../seed/seed';

export const SQLITE_FILE_NAME = 'lookup.sqlite';

/**
 * Opens the configured store. SQLite under DATA_DIR is the default; a postgres:// DATABASE_URL selects
 * PostgreSQL. An empty store is seeded from data/seed (the real reference data) on first start.
 */
export async function openStore(options: {
  dataDir: string;
  databaseUrl?: string;
  log?: (message: string) => void;
  /** False when the caller loads its own data set next (scripts/gen.ts): seeding first would be wasted work. */
  seedWhenEmpty?: boolean;
}): Promise<LookupStore> {
  const log = options.log ?? (() => {});
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    throw new Error('PostgreSQL store is not available in this build');
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, SQLITE_FILE_NAME);
  const store = SqliteStore.open(file);
  if (options.seedWhenEmpty !== false && !(await store.hasData())) {
    const started = Date.now();
    log(`Seeding ${file} from data/seed …`);
    const dataSet = buildSeedDataSet();
    await store.replaceDataSet(dataSet);
    log(`Seeded ${dataSet.branches.length} bank branches, ${dataSet.headOffices.length} head offices, ${dataSet.agents.length} agents in ${Date.now() - started} ms.`);
  }
  return store;
}
