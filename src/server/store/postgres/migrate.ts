import type pg from 'pg';
import { SQUASHED, migrationsOf, olderThanSquashed } from '../migrations';

// The PostgreSQL store's migrations (../migrations.ts), and the bound of the statements that may run far longer
// than a lookup (migrations, loads, whole reads).

// Any fixed number: serialises migrations when several instances (or `npm run migrate`) start at once.
const MIGRATION_LOCK = 4_040_404;

// Migrations and data-set loads may run far longer than a lookup: their statements are exempt from
// statement_timeout and get this client-side bound instead of the pool's query_timeout.
const MAINTENANCE_TIMEOUT_MS = 60 * 60 * 1000;
export const maintenance = (client: pg.PoolClient, text: string, values?: unknown[]) =>
  // query_timeout per query is read by pg's Client but missing from its QueryConfig type.
  client.query({ text, values, query_timeout: MAINTENANCE_TIMEOUT_MS } as pg.QueryConfig);

/** Applies the migrations the database has not seen; the names of those applied. */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await maintenance(client, 'SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const seen = (await client.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations'))
      .rows;
    const done = new Set(seen.map((r) => r.version));
    // The tree before 001-schema.sql, named by its first file.
    if (seen.some((r) => r.name === '001-initial.sql')) {
      const last = seen.reduce((a, b) => (a.version > b.version ? a : b));
      if (last.name !== SQUASHED.postgresLast) throw olderThanSquashed(last.name);
      await client.query('BEGIN');
      try {
        await client.query('DELETE FROM schema_migrations');
        await client.query('INSERT INTO schema_migrations (version, name) VALUES (1, $1)', [SQUASHED.baseline]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      done.clear();
      done.add(1);
    }
    const applied: string[] = [];
    for (const migration of migrationsOf('postgres')) {
      if (done.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await maintenance(client, migration.sql());
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(migration.name);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.query('RESET statement_timeout').catch(() => {});
    client.release();
  }
}
