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

describe.each(made)('a database made on %s', (folder) => {
  const fixture = join(FIXTURES_DIR, folder);
  const tables = JSON.parse(readFileSync(join(fixture, 'tables.json'), 'utf8')) as Record<string, TableHashes>;

  it('opens on SQLite with every row intact', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rpl-older-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    writeFileSync(join(dataDir, SQLITE_FILE_NAME), gunzipSync(readFileSync(join(fixture, `${SQLITE_FILE_NAME}.gz`))));
    const store = (await openStore({ dataDir, seedOnStart: false })) as SqliteStore;
    cleanups.push(() => store.close());
    expect(sqliteHashes(store.db, tables.sqlite)).toEqual(tables.sqlite);
    await expectDeskIntact(store, tables.sqlite);
  });

  it.skipIf(!testEngines().includes('postgres'))('opens on PostgreSQL with every row intact', async () => {
    const name = uniqueName('rpl_test_older');
    const url = await createDatabase(name);
    cleanups.push(() => dropDatabase(name));
    // A plain pg_dump, restored as its own documentation says: psql.
    execFileSync('psql', ['--quiet', '--no-psqlrc', '-v', 'ON_ERROR_STOP=1', url], {
      input: gunzipSync(readFileSync(join(fixture, 'postgres.sql.gz'))),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'rpl-older-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const store = (await openStore({ dataDir, databaseUrl: url, seedOnStart: false })) as PgStore;
    cleanups.push(() => store.close());
    const client = await store.pool.connect();
    try {
      expect(await postgresHashes(client, tables.postgres)).toEqual(tables.postgres);
    } finally {
      client.release();
    }
    await expectDeskIntact(store, tables.postgres);
  });
});
