import { setImmediate } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type { DataSet } from '../../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, insertInto, tableValues } from '../../domain/kind-columns';
import type { KindTable, StatefulRow } from '../../domain/kind-columns';
import { ChangeNotHeldError, DataSetChangedError, PUBLISHING_SQL, SERVED_TABLES, type ReplaceOptions } from '../store';

// The SQLite store's load: a whole data set replaces the served one in one write transaction.

/** Rows written between two steps of a load (a power of two, less one: a mask). */
const WRITE_STEP_ROWS = 2 ** 14 - 1;
/** Page cache of a connection while it writes a load (KiB), enough for a large load's indexes. */
const LOAD_CACHE_KIB = 1024 * 1024;
/** SQLite's default. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Replaces the served data set (LookupStore.replaceDataSet): one IMMEDIATE transaction, refused when the served
 * version is not `options.expectedVersion`; with `commitWhen` it yields between steps and commits only if that
 * resolves true (the import's parallel validation).
 */
export async function replaceDataSet(
  db: Database.Database,
  dataSet: DataSet,
  options: ReplaceOptions,
  currentVersion: () => string,
): Promise<boolean> {
  const { commitWhen } = options;
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  // The checkpoint is run after the commit (and after onCommit), not inside it.
  db.pragma('wal_autocheckpoint = 0');
  // A load's pages stay in memory until the commit instead of spilling to the WAL on the way.
  db.pragma(`cache_size = -${LOAD_CACHE_KIB}`);
  let committed = false;
  try {
    db.exec('BEGIN IMMEDIATE');
    // Under the write lock: no other writer can commit between this check and our commit.
    const served = currentVersion();
    if (options.expectedVersion !== undefined && served !== options.expectedVersion) {
      throw new DataSetChangedError(options.expectedVersion, served);
    }
    for (const _step of writeDataSet(db, dataSet, options.onProgress)) {
      if (commitWhen) await setImmediate();
    }
    if (commitWhen && !(await commitWhen)) return false;
    const publishing = options.publishing;
    if (publishing) {
      const until = new Date(Date.now() + publishing.leaseMs).toISOString();
      if (db.prepare(PUBLISHING_SQL.hold).run(until, publishing.changeId, publishing.owner).changes !== 1)
        throw new ChangeNotHeldError(publishing.changeId);
      db.prepare(PUBLISHING_SQL.record).run(publishing.changeId, new Date().toISOString());
    }
    db.exec('COMMIT');
    committed = true;
  } finally {
    if (!committed && db.inTransaction) db.exec('ROLLBACK');
    db.pragma(`cache_size = ${cacheSize}`);
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  }
  options.onCommit?.();
  db.pragma('wal_checkpoint(PASSIVE)');
  db.pragma('optimize');
  return true;
}

/**
 * Writes the whole data set inside the caller's transaction, in steps (a chunk of rows, an index): the
 * caller may yield between them. Large loads are faster into unindexed tables: the indexes (as the
 * migrations defined them) are dropped and built again at the end, in the same transaction, so readers
 * never see the tables without them.
 */
function* writeDataSet(
  db: Database.Database,
  dataSet: DataSet,
  onProgress: (done: number, total: number) => void = () => {},
): Generator<void> {
  const importedAt = new Date().toISOString();
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('bank_branches', 'agents')",
    )
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
  for (const table of SERVED_TABLES) {
    db.exec(`DELETE FROM ${table}`);
  }
  const insertCountry = db.prepare('INSERT INTO receiving_countries VALUES (?, ?, ?)');
  for (const c of dataSet.countries) insertCountry.run(c.code, c.name, c.currency);
  const insertMode = db.prepare('INSERT INTO delivery_modes VALUES (?, ?)');
  for (const m of dataSet.deliveryModes) insertMode.run(m.value, m.name);
  const insertState = db.prepare('INSERT INTO states VALUES (?, ?, ?)');
  for (const s of dataSet.states) insertState.run(s.country, s.code, s.name);
  const insertCity = db.prepare('INSERT OR IGNORE INTO cities VALUES (?, ?, ?)');
  for (const c of dataSet.cities) insertCity.run(c.country, c.state, c.name);
  const insertOffice = db.prepare('INSERT INTO head_offices VALUES (?, ?, ?, ?, ?, ?)');
  const insertOfficeMode = db.prepare('INSERT INTO head_office_delivery_modes VALUES (?, ?)');
  const insertOfficeBank = db.prepare('INSERT INTO head_office_banks VALUES (?, ?)');
  for (const h of dataSet.headOffices) {
    insertOffice.run(h.code, h.country, h.name, h.networkName, h.payoutType, h.demoLocations);
    for (const m of h.deliveryModes) insertOfficeMode.run(h.code, m);
    for (const b of h.bankCodes) insertOfficeBank.run(h.code, b);
  }
  const total = dataSet.branches.length + dataSet.agents.length;
  let done = 0;
  /** Inserts the rows of one kind: a step every WRITE_STEP_ROWS + 1 rows, counted over both kinds. */
  function* insertRows<R extends StatefulRow>(kind: KindTable<R>, rows: readonly R[]): Generator<void> {
    const insert = db.prepare(insertInto(kind));
    for (const row of rows) {
      insert.run(tableValues(kind, row));
      if ((++done & WRITE_STEP_ROWS) === 0) {
        onProgress(done, total);
        yield;
      }
    }
  }
  yield* insertRows(BRANCH_TABLE, dataSet.branches);
  yield* insertRows(AGENT_TABLE, dataSet.agents);
  onProgress(total, total);
  const insertSource = db.prepare(
    'INSERT INTO data_sources (kind, file, sha256, rows, imported_at, countries) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const s of dataSet.sources) {
    insertSource.run(s.kind, s.file, s.sha256, s.rows, s.importedAt ?? importedAt, (s.countries ?? []).join(' '));
  }
  for (const index of indexes) {
    yield;
    db.exec(index.sql);
  }
  db.exec('UPDATE data_version SET version = version + 1');
}
