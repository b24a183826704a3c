import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase, uniqueName } from '../../../testing/postgres';
import { testEngines } from '../../../testing/test-app';
import { DeskEngine } from '../../desk/engine';
import { SQLITE_FILE_NAME, openStore } from '../../open-store';
import { opsAccountsOf } from '../ops-accounts';
import type { PgStore } from '../postgres/pg-store';
import type { SqliteStore } from '../sqlite/sqlite-store';
import type { LookupStore } from '../store';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { FIXTURES_DIR, postgresHashes, sqliteHashes, type TableHashes } from './older-database';

// A database directory made by an earlier version of this code (fixtures/<date>/, made by older-database.ts)
// opens under today's code — which migrates it — with every row of every table it had intact (the same count
// and the same hash of the columns it had), and the desk shows all its versions, changes, accounts and audit rows.

const made = readdirSync(FIXTURES_DIR).sort();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Through today's desk: what the fixture's tables held is what the desk lists. */
async function expectDeskIntact(store: LookupStore, tables: TableHashes) {
  const desk = new DeskEngine(store);
  try {
    const versions = await desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 50 });
    const changes = await desk.list({ pageNumber: 1, pageSize: 50 });
    const audit = await desk.audit({ pageNumber: 1, pageSize: 50 });
    expect(versions.pagination.totalItems).toBe(tables.desk_versions.rows);
    expect(changes.pagination.totalItems).toBe(tables.desk_changes.rows);
    expect(audit.pagination.totalItems).toBe(tables.ops_audit.rows);
    expect(versions.data.map((v) => v.approvedBy)).toContain('bob');
  } finally {
    await desk.close();
  }
  expect((await opsAccountsOf(store).accounts()).map((a) => a.name).sort()).toEqual(['bob', 'dora']);
}

/** A SQLite file's schema: every table, index and trigger as sqlite_master keeps its statement. */
const sqliteSchema = (db: Database.Database) =>
  db
    .prepare(
      `SELECT type || ' ' || name || ': ' || sql FROM sqlite_master
       WHERE sql IS NOT NULL AND name <> 'schema_migrations' AND name NOT LIKE 'sqlite_%' ORDER BY type, name`,
    )
    .pluck()
    .all();

/** A PostgreSQL database's schema: columns, indexes and constraints of its public tables. */
async function postgresSchema(client: pg.ClientBase) {
  const rows = async (sql: string) => (await client.query<{ line: string }>(sql)).rows.map((r) => r.line);
  return [
    ...(await rows(
      `SELECT concat_ws(' ', table_name, column_name, data_type, is_nullable, column_default, collation_name) AS line
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
       ORDER BY table_name, ordinal_position`,
    )),
    ...(await rows(`SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`)),
    ...(await rows(
      `SELECT conname || ' ' || pg_get_constraintdef(oid) AS line FROM pg_constraint
       WHERE connamespace = 'public'::regnamespace ORDER BY conname`,
    )),
  ];
}

/** The schema of a fixture's database, opened (and so migrated) as the test below opens it. */
async function openedSqlite(fixture: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'rpl-older-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (fixture)
    writeFileSync(join(dataDir, SQLITE_FILE_NAME), gunzipSync(readFileSync(join(fixture, `${SQLITE_FILE_NAME}.gz`))));
  const store = (await openStore({ dataDir, seedOnStart: !fixture, seedWhenEmpty: false })) as SqliteStore;
  cleanups.push(() => store.close());
  return store;
}

async function openedPostgres(fixture: string) {
  const name = uniqueName('rpl_test_older');
  const url = await createDatabase(name);
  cleanups.push(() => dropDatabase(name));
  // A plain pg_dump, restored as its own documentation says: psql.
  if (fixture)
    execFileSync('psql', ['--quiet', '--no-psqlrc', '-v', 'ON_ERROR_STOP=1', url], {
      input: gunzipSync(readFileSync(join(fixture, 'postgres.sql.gz'))),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
  const dataDir = mkdtempSync(join(tmpdir(), 'rpl-older-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = (await openStore({ dataDir, databaseUrl: url, seedOnStart: false, seedWhenEmpty: false })) as PgStore;
  cleanups.push(() => store.close());
  return store;
}

async function withClient<T>(store: PgStore, use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await store.pool.connect();
  try {
    return await use(client);
  } finally {
    client.release();
  }
}

describe.each(made)('a database made on %s', (folder) => {
  const fixture = join(FIXTURES_DIR, folder);
  const tables = JSON.parse(readFileSync(join(fixture, 'tables.json'), 'utf8')) as Record<string, TableHashes>;

  it('opens on SQLite with every row intact, its schema that of a database made today', async () => {
    const store = await openedSqlite(fixture);
    expect(sqliteHashes(store.db, tables.sqlite)).toEqual(tables.sqlite);
    await expectDeskIntact(store, tables.sqlite);
    expect(sqliteSchema(store.db)).toEqual(sqliteSchema((await openedSqlite('')).db));
  });

  it.skipIf(!testEngines().includes('postgres'))(
    'opens on PostgreSQL with every row intact, its schema that of a database made today',
    async () => {
      const store = await openedPostgres(fixture);
      expect(await withClient(store, (client) => postgresHashes(client, tables.postgres))).toEqual(tables.postgres);
      await expectDeskIntact(store, tables.postgres);
      const today = await openedPostgres('');
      expect(await withClient(store, postgresSchema)).toEqual(await withClient(today, postgresSchema));
    },
  );
});

describe('a database the migrations before 001-schema.sql left at an earlier step', () => {
  it('is refused on SQLite, untouched, with what to do', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rpl-older-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const file = join(dataDir, SQLITE_FILE_NAME);
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(file);
    db.exec('CREATE TABLE receiving_countries (code TEXT PRIMARY KEY)');
    db.pragma('user_version = 12');
    db.close();
    await expect(openStore({ dataDir, seedOnStart: false })).rejects.toThrow(/step 12 .*code of 2026-11-27/);
    const after = new Sqlite(file, { readonly: true });
    expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all()).toEqual([
      'receiving_countries',
    ]);
    after.close();
  });

  it.skipIf(!testEngines().includes('postgres'))('is refused on PostgreSQL, untouched', async () => {
    const name = uniqueName('rpl_test_older');
    const url = await createDatabase(name);
    cleanups.push(() => dropDatabase(name));
    execFileSync('psql', ['--quiet', '--no-psqlrc', '-v', 'ON_ERROR_STOP=1', url], {
      input: `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
              INSERT INTO schema_migrations (version, name) VALUES (1, '001-initial.sql'), (2, '002-source-countries.sql');`,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'rpl-older-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await expect(openStore({ dataDir, databaseUrl: url, seedOnStart: false })).rejects.toThrow(
      /002-source-countries.sql .*code of 2026-11-27/,
    );
  });
});
