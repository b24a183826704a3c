import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';
import { PgStore } from '../server/store/postgres/pg-store';
import { buildSeedDataSet } from '../server/seed/seed';
import { createDatabase, dropDatabasesLike, postgresUnreachableReason, uniqueName } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    seededSqliteFile: string;
    /** The seeded PostgreSQL database test stores copy (CREATE DATABASE … TEMPLATE), or null when skipped. */
    seededPostgresDatabase: string | null;
  }
}

interface Seeded {
  seededSqliteFile: string;
  seededPostgresDatabase: string | null;
  teardown(): Promise<void>;
}

/** Each Vitest project runs its global setup; the seeding is shared by the projects of one run (one process). */
const shared = globalThis as { rplSeeded?: Promise<Seeded>; rplSeededUsers?: number };

/**
 * Seeds the real reference data once per run: one SQLite file, and, when a PostgreSQL server is reachable,
 * one throwaway PostgreSQL database. Test files open private copies of them (openTestStore).
 */
export default async function setup(project: TestProject) {
  shared.rplSeeded ??= seed();
  shared.rplSeededUsers = (shared.rplSeededUsers ?? 0) + 1;
  const seeded = await shared.rplSeeded;
  project.provide('seededSqliteFile', seeded.seededSqliteFile);
  project.provide('seededPostgresDatabase', seeded.seededPostgresDatabase);
  return async () => {
    shared.rplSeededUsers! -= 1;
    if (shared.rplSeededUsers === 0) {
      shared.rplSeeded = undefined;
      await seeded.teardown();
    }
  };
}

async function seed(): Promise<Seeded> {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-test-'));
  const file = join(dir, 'seeded.sqlite');
  const dataSet = buildSeedDataSet();
  const store = SqliteStore.open(file);
  await store.replaceDataSet(dataSet);
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();

  // Every database of this run starts with this prefix; teardown drops them all.
  const runPrefix = uniqueName('rpl_test');
  let seededPostgresDatabase: string | null = null;
  const unreachable = await postgresUnreachableReason();
  if (unreachable) {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${unreachable}`);
    console.warn(`Skipping the PostgreSQL engine: ${unreachable}. Set REQUIRE_POSTGRES=1 to make this an error.`);
  } else {
    seededPostgresDatabase = `${runPrefix}_seed`;
    const pgStore = PgStore.open({
      connectionString: await createDatabase(seededPostgresDatabase),
      statementTimeoutMs: 600_000,
    });
    try {
      await pgStore.migrate();
      await pgStore.replaceDataSet(dataSet);
    } finally {
      await pgStore.close();
    }
  }

  return {
    seededSqliteFile: file,
    seededPostgresDatabase,
    async teardown() {
      rmSync(dir, { recursive: true, force: true });
      if (seededPostgresDatabase) await dropDatabasesLike(runPrefix);
    },
  };
}
