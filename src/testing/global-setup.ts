import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';
import { buildSeedDataSet } from '../server/seed/seed';

declare module 'vitest' {
  export interface ProvidedContext {
    seededSqliteFile: string;
  }
}

/** Seeds one SQLite database with the real reference data, once per run; test files open copies of it. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-test-'));
  const file = join(dir, 'seeded.sqlite');
  const store = SqliteStore.open(file);
  await store.replaceDataSet(buildSeedDataSet());
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();
  project.provide('seededSqliteFile', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
