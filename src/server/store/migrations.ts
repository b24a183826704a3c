import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths';

// Each engine's schema: numbered migration files (NNN-name.sql) in <engine>/migrations/, the same numbers in both
// trees, each applied once and recorded in the database's schema_migrations table.

export interface Migration {
  version: number;
  name: string;
  sql: () => string;
}

/** An engine's migrations, in order (read from the source tree also when compiled: SQL is not bundled). */
export function migrationsOf(engine: 'sqlite' | 'postgres'): Migration[] {
  const dir = join(REPO_ROOT, 'src', 'server', 'store', engine, 'migrations');
  return readdirSync(dir)
    .filter((name) => /^\d{3}-.+\.sql$/.test(name))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 3)), name, sql: () => readFileSync(join(dir, name), 'utf8') }));
}

/**
 * 001-schema.sql holds what the trees before it made, one step per engine: a database they brought to their last
 * step (SQLite's user_version 19, PostgreSQL's 017-teller-reports.sql) has 001 and goes on from there; one they
 * left earlier is refused, not half-migrated.
 */
export const SQUASHED = { sqliteUserVersion: 19, postgresLast: '017-teller-reports.sql', baseline: '001-schema.sql' };

export function olderThanSquashed(step: string | number): Error {
  return new Error(
    `This database's schema is at step ${step} of the migrations before ${SQUASHED.baseline}: open it once with ` +
      `this project's code of 2026-11-27 (git history), which brings it to their last step, then here.`,
  );
}
