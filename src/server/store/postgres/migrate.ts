import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { REPO_ROOT } from '../../paths';

// The PostgreSQL store's schema: numbered migration files (NNN-name.sql) in migrations/, applied once each, and
// the bound of the statements that may run far longer than a lookup (migrations, loads, whole reads).

// Read from the source tree also when compiled: SQL is not bundled (paths.ts).
const MIGRATIONS_DIR = join(REPO_ROOT, 'src', 'server', 'store', 'postgres', 'migrations');
// Any fixed number: serialises migrations when several instances (or `npm run migrate`) start at once.
const MIGRATION_LOCK = 4_040_404;

// Migrations and data-set loads may run far longer than a lookup: their statements are exempt from
// statement_timeout and get this client-side bound instead of the pool's query_timeout.
const MAINTENANCE_TIMEOUT_MS = 60 * 60 * 1000;
export const maintenance = (client: pg.PoolClient, text: string, values?: unknown[]) =>
  // query_timeout per query is read by pg's Client but missing from its QueryConfig type.
  client.query({ text, values, query_timeout: MAINTENANCE_TIMEOUT_MS } as pg.QueryConfig);

/** Applies the numbered migrations (NNN-name.sql) the database has not seen, tracked in schema_migrations. */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await maintenance(client, 'SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{3}-.+\.sql$/.test(f))
      .sort();
    const applied: string[] = [];
    for (const file of files) {
      const version = Number(file.slice(0, 3));
      if (done.has(version)) continue;
      await client.query('BEGIN');
      try {
        await maintenance(client, readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(file);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.query('RESET statement_timeout').catch(() => {});
    client.release();
  }
}
