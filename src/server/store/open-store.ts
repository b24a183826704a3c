import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LookupStore } from './store';
import { SqliteStore } from './sqlite/sqlite-store';
import { PgStore, type PgStoreOptions } from './postgres/pg-store';
import { buildSeedDataSet } from '../seed/seed';

export const SQLITE_FILE_NAME = 'lookup.sqlite';

/**
 * Opens the configured store. SQLite under DATA_DIR is the default; a postgres:// DATABASE_URL selects
 * PostgreSQL. An empty store is seeded from data/seed (the real reference data) on first start.
 */
export async function openStore(options: {
  dataDir: string;
  databaseUrl?: string;
  /** Pool settings of the PostgreSQL store (PG_POOL_SIZE, PG_STATEMENT_TIMEOUT_MS, PG_CONNECT_TIMEOUT_MS). */
  postgres?: Omit<PgStoreOptions, 'connectionString' | 'log'>;
  log?: (message: string) => void;
}): Promise<LookupStore> {
  const log = options.log ?? (() => {});
  let store: LookupStore;
  let where: string;
  if (isPostgresUrl(options.databaseUrl)) {
    const pgStore = PgStore.open({ ...options.postgres, connectionString: options.databaseUrl, log });
    // Safe with several instances starting at once: migrations run one at a time under an advisory lock.
    for (const file of await pgStore.migrate().catch(async (error) => { await pgStore.close(); throw error; })) log(`Applied migration ${file}`);
    store = pgStore;
    where = 'PostgreSQL';
  } else {
    mkdirSync(options.dataDir, { recursive: true });
    where = join(options.dataDir, SQLITE_FILE_NAME);
    store = SqliteStore.open(where);
  }
  if (!(await store.hasData())) {
    const started = Date.now();
    log(`Seeding ${where} from data/seed …`);
    const dataSet = buildSeedDataSet();
    await store.replaceDataSet(dataSet);
    log(`Seeded ${dataSet.branches.length} bank branches, ${dataSet.headOffices.length} head offices, ${dataSet.agents.length} agents in ${Date.now() - started} ms.`);
  }
  return store;
}

export const isPostgresUrl = (url: string | undefined): url is string => url !== undefined && /^postgres(ql)?:\/\//.test(url);
