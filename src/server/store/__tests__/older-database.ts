import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from '../../../testing/postgres';
import { addAccount } from '../../desk/accounts';
import { deskDbOf } from '../../desk/db';
import type { OpsActor } from '../../desk/desk';
import { DeskEngine } from '../../desk/engine';
import { createReport } from '../../desk/reports';
import { editedBangladesh, writeBranchFile } from '../../desk/__tests__/fixtures';
import type { DataSet } from '../../domain/data-set';
import { SQLITE_FILE_NAME } from '../../open-store';
import { buildSeedDataSet } from '../../seed/seed';
import { opsAccountsOf } from '../ops-accounts';
import { PgStore } from '../postgres/pg-store';
import { SqliteStore } from '../sqlite/sqlite-store';
import type { LookupStore } from '../store';

// A database made by an earlier version of this code, kept as a fixture: older-database.test.ts opens it with
// today's code (which migrates it) and checks that every row is still there. Made by
//   npx tsx src/server/store/__tests__/older-database.ts
// which writes a new fixture folder (fixtures/<date>/) holding each engine's database — the SQLite file and a
// plain pg_dump, gzipped — and each table's row count and hash as that code read them. Keep the folders made
// by earlier versions: each is a database a user may still have.

export const FIXTURES_DIR = join(import.meta.dirname, 'fixtures');

/** Each table's columns, row count and a SHA-256 over its rows (ordered by every column), as one engine reads it. */
export type TableHashes = Record<string, { columns: string[]; rows: number; sha256: string }>;

/** The bookkeeping of the migrations themselves: a newer code adds to it. */
const NOT_DATA = /^(schema_migrations|sqlite_.*)$/;

const cell = (value: unknown): unknown =>
  Buffer.isBuffer(value) ? `base64:${value.toString('base64')}` : value instanceof Date ? value.toISOString() : value;

function hashRows(rows: unknown[][]): string {
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${JSON.stringify(row.map(cell))}\n`);
  return hash.digest('hex');
}

/** The hashes of the named columns (all of them when none are named) of every data table of a SQLite file. */
export function sqliteHashes(db: Database.Database, only?: TableHashes): TableHashes {
  const tables = only
    ? Object.keys(only)
    : (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[])
        .map((t) => t.name)
        .filter((name) => !NOT_DATA.test(name));
  const hashes: TableHashes = {};
  for (const table of tables) {
    const columns =
      only?.[table].columns ??
      (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY name`).all(table) as { name: string }[]).map(
        (c) => c.name,
      );
    const list = columns.map((c) => `"${c}"`).join(', ');
    const rows = db
      .prepare(`SELECT ${list} FROM "${table}" ORDER BY ${columns.map((_, i) => i + 1).join(', ')}`)
      .raw()
      .all() as unknown[][];
    hashes[table] = { columns, rows: rows.length, sha256: hashRows(rows) };
  }
  return hashes;
}

/** The same for every data table of a PostgreSQL database (its public schema). */
export async function postgresHashes(client: pg.ClientBase, only?: TableHashes): Promise<TableHashes> {
  const tables = only
    ? Object.keys(only)
    : (
        await client.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
        )
      ).rows
        .map((t) => t.name)
        .filter((name) => !NOT_DATA.test(name));
  const hashes: TableHashes = {};
  for (const table of tables) {
    const columns =
      only?.[table].columns ??
      (
        await client.query<{ name: string }>(
          `SELECT column_name AS name FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = $1 ORDER BY column_name`,
          [table],
        )
      ).rows.map((c) => c.name);
    const list = columns.map((c) => `"${c}"`).join(', ');
    const { rows } = await client.query<unknown[]>({
      text: `SELECT ${list} FROM public."${table}" ORDER BY ${columns.map((_, i) => i + 1).join(', ')}`,
      rowMode: 'array',
    });
    hashes[table] = { columns, rows: rows.length, sha256: hashRows(rows) };
  }
  return hashes;
}

/** The shipped data of Bangladesh alone: every kind of row, small enough to keep in the repository. */
function bangladesh(): DataSet {
  const seed = buildSeedDataSet();
  const here = (country: string) => country === 'BD';
  return {
    countries: seed.countries.filter((c) => here(c.code)),
    deliveryModes: seed.deliveryModes,
    states: seed.states.filter((s) => here(s.country)),
    cities: seed.cities.filter((c) => here(c.country)),
    headOffices: seed.headOffices.filter((h) => here(h.country)),
    branches: seed.branches.filter((b) => here(b.country)),
    agents: seed.agents.filter((a) => here(a.country)),
    sources: seed.sources.map((s) => (s.countries ? { ...s, countries: s.countries.filter(here) } : s)),
  };
}

const dora: OpsActor = { name: 'dora', roles: ['maker', 'checker', 'admin'], via: 'session' };
const bob: OpsActor = { name: 'bob', roles: ['checker'], via: 'session' };

/** What the desk keeps: accounts, published versions, a rollback, a pending change with its comment, a report. */
async function deskHistory(store: LookupStore, dir: string): Promise<void> {
  const accounts = opsAccountsOf(store);
  await addAccount(accounts, { name: 'dora', roles: dora.roles, password: 'a long pass phrase for dora' }, 'shell');
  await addAccount(accounts, { name: 'bob', roles: bob.roles, password: 'a long pass phrase for bob' }, 'dora');
  const desk = new DeskEngine(store);
  try {
    for (const [changed, tag] of [
      [1, 'FIRST'],
      [3, 'SECOND'],
    ] as const) {
      const path = writeBranchFile(dir, `bd-${tag}.csv`, editedBangladesh(changed, tag));
      const change = await desk.stage(dora, { kind: 'branches', path, fileName: `bd-${tag}.csv` });
      await desk.approve(bob, change.id, { comment: `checked ${tag}`, confirmRemovals: false });
    }
    const versions = (await desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 10 })).data;
    const rollback = await desk.stageRollback(dora, versions[1].id);
    await desk.approve(bob, rollback.id, { comment: 'back one', confirmRemovals: false });
    const path = writeBranchFile(dir, 'bd-pending.csv', editedBangladesh(2, 'PENDING'));
    await desk.stage(dora, { kind: 'branches', path, fileName: 'bd-pending.csv' });
    await createReport(deskDbOf(store), {
      kind: 'branches',
      key: 'BD|185260069',
      reason: 'wrong-address',
      note: 'the branch moved',
      correspondentId: 'AB12CD',
    });
  } finally {
    await desk.close();
  }
}

/** Makes today's fixture folder: each engine's database with the desk's history, and the hashes of its tables. */
async function makeFixtures(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'rpl-fixture-'));
  const out = join(FIXTURES_DIR, new Date().toISOString().slice(0, 10));
  mkdirSync(out, { recursive: true });
  const data = bangladesh();
  try {
    const file = join(work, SQLITE_FILE_NAME);
    const sqlite = SqliteStore.open(file);
    await sqlite.replaceDataSet(data);
    await deskHistory(sqlite, work);
    sqlite.db.pragma('wal_checkpoint(TRUNCATE)');
    const sqliteTables = sqliteHashes(sqlite.db);
    await sqlite.close();
    writeFileSync(join(out, `${SQLITE_FILE_NAME}.gz`), gzipSync(readFileSync(file), { level: 9 }));

    const name = uniqueName('rpl_fixture');
    const url = await createDatabase(name);
    try {
      const store = PgStore.open({ connectionString: url });
      await store.migrate();
      await store.replaceDataSet(data);
      await deskHistory(store, work);
      const client = await store.pool.connect();
      const postgresTables = await postgresHashes(client).finally(() => client.release());
      await store.close();
      const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', databaseUrl(name)], {
        maxBuffer: 1 << 30,
      });
      writeFileSync(join(out, 'postgres.sql.gz'), gzipSync(dump, { level: 9 }));
      writeFileSync(
        join(out, 'tables.json'),
        `${JSON.stringify({ sqlite: sqliteTables, postgres: postgresTables }, null, 1)}\n`,
      );
    } finally {
      await dropDatabase(name);
    }
    console.log(`wrote ${out}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  makeFixtures().catch((error: Error) => {
    console.error(error.stack ?? error.message);
    process.exit(1);
  });
}
