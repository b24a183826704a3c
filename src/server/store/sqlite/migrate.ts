import type Database from 'better-sqlite3';
import { SQUASHED, migrationsOf, olderThanSquashed, type Migration } from '../migrations';

/** What this database has not seen: whether it is one the tree before 001-schema.sql finished, and the rest. */
function pending(db: Database.Database): { adopt: boolean; migrations: Migration[] } {
  const tracked = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get();
  const done = new Set(tracked ? (db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]) : []);
  // That tree counted its steps in user_version.
  const squashed = db.pragma('user_version', { simple: true }) as number;
  const adopt = done.size === 0 && squashed !== 0;
  if (adopt) {
    if (squashed !== SQUASHED.sqliteUserVersion) throw olderThanSquashed(squashed);
    done.add(1);
  }
  return { adopt, migrations: migrationsOf('sqlite').filter((m) => !done.has(m.version)) };
}

/**
 * Applies the migrations (../migrations.ts) this database has not seen, in one transaction that holds the write
 * lock from its start (two processes opening one file migrate it once); the names of those applied. An
 * up-to-date database is only read.
 */
export function migrate(db: Database.Database): string[] {
  const first = pending(db);
  if (!first.adopt && first.migrations.length === 0) return [];
  const run = db.transaction(() => {
    const { adopt, migrations } = pending(db);
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT',
    );
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    if (adopt) record.run(1, SQUASHED.baseline, new Date().toISOString());
    for (const migration of migrations) {
      db.exec(migration.sql());
      record.run(migration.version, migration.name, new Date().toISOString());
    }
    return migrations.map((m) => m.name);
  });
  return run.immediate();
}
