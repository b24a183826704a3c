import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { REPO_ROOT } from '../../paths';

// The SQLite store's schema: numbered migration files (NNN-name.sql) beside this file, applied once each.

// Read from the source tree also when compiled: SQL is not bundled (paths.ts).
const MIGRATIONS_DIR = join(REPO_ROOT, 'src', 'server', 'store', 'sqlite');

/** Applies the numbered migrations (NNN-name.sql) this database has not seen, tracked in user_version. */
export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}-.+\.sql$/.test(f))
    .sort();
  let applied = 0;
  for (const file of files) {
    const version = Number(file.slice(0, 3));
    if (version <= current) continue;
    db.transaction(() => {
      db.exec(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
      db.pragma(`user_version = ${version}`);
    })();
    applied++;
  }
  return applied;
}
