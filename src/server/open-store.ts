import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { LookupStore } from './store/store';
import { SqliteStore } from './store/sqlite/sqlite-store';
import { PgStore, type PgStoreOptions } from './store/postgres/pg-store';
import { buildSeedDataSet } from './seed/seed';
import { loadConfig } from './config';

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
  /** false (SEED_ON_START=false): never create or seed; a missing or empty database is an error. */
  seedOnStart?: boolean;
  /** False when the caller loads its own data set next (scripts/gen.ts): seeding first would be wasted work. */
  seedWhenEmpty?: boolean;
  /**
   * False: the SQLite file's integrity check is left out, for a serving thread (serving-thread.ts) opening the file
   * its process's main thread has just checked: the check reads the whole file, and a second one would hold the
   * start as long again.
   */
  checkIntegrity?: boolean;
}): Promise<LookupStore> {
  const log = options.log ?? (() => {});
  const seedOnStart = options.seedOnStart ?? true;
  let store: LookupStore;
  let where: string;
  if (isPostgresUrl(options.databaseUrl)) {
    const pgStore = PgStore.open({ ...options.postgres, connectionString: options.databaseUrl, log });
    // Safe with several instances starting at once: migrations run one at a time under an advisory lock.
    for (const file of await pgStore.migrate().catch(async (error) => {
      await pgStore.close();
      throw error;
    }))
      log(`Applied migration ${file}`);
    store = pgStore;
    where = 'PostgreSQL';
  } else {
    where = join(options.dataDir, SQLITE_FILE_NAME);
    if (!seedOnStart && !existsSync(where)) {
      throw new Error(
        `The database file ${where} does not exist, and SEED_ON_START=false forbids creating it. Restore the file, or start with SEED_ON_START=true to seed it from data/seed.`,
      );
    }
    mkdirSync(options.dataDir, { recursive: true });
    store = openSqliteFile(where, options.checkIntegrity ?? true);
  }
  if (options.seedWhenEmpty !== false && !(await store.hasData())) {
    if (!seedOnStart) {
      await store.close();
      throw new Error(`The database ${where} holds no data set, and SEED_ON_START=false forbids seeding it.`);
    }
    const started = Date.now();
    log(`Seeding ${where} from data/seed …`);
    const dataSet = buildSeedDataSet();
    await store.replaceDataSet(dataSet);
    log(
      `Seeded ${dataSet.branches.length} bank branches, ${dataSet.headOffices.length} head offices, ${dataSet.agents.length} agents in ${Date.now() - started} ms.`,
    );
  }
  return store;
}

export const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//.test(url);
/**
 * Opens the file and checks it is a sound SQLite database before serving from it: a damaged file is a
 * clear error at start, not a 500 on some later lookup.
 */
function openSqliteFile(file: string, checkIntegrity: boolean): SqliteStore {
  let store: SqliteStore | undefined;
  try {
    // SQLite takes an empty file for an empty database (and would migrate and seed it); any existing file
    // that does not start with the SQLite header is damaged, whatever its size.
    if (existsSync(file) && !hasSqliteHeader(file)) throw new Error('file is not a database');
    store = SqliteStore.open(file);
    const check = checkIntegrity ? store.db.pragma('quick_check(1)', { simple: true }) : 'ok';
    if (check !== 'ok') throw new Error(`integrity check: ${String(check)}`);
    return store;
  } catch (error) {
    try {
      store?.db.close();
    } catch {
      // Already unusable; the error below is the one to report.
    }
    throw new Error(
      `The database file ${file} is not a usable SQLite database (${(error as Error).message}). Restore it from a backup, or move it away to have it seeded anew.`,
      { cause: error },
    );
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\u0000', 'latin1');

function hasSqliteHeader(file: string): boolean {
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/** The store the environment's configuration names (DATA_DIR, DATABASE_URL, SEED_ON_START), for a command line. */
export const openConfiguredStore = (config = loadConfig()): Promise<LookupStore> =>
  openStore({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    seedOnStart: config.SEED_ON_START,
    log: (m) => console.error(m),
  });
