import { randomBytes } from 'node:crypto';
import pg from 'pg';

// Throwaway PostgreSQL databases for tests, on the shared server (TEST_POSTGRES_URL, default the local
// `test` database with trust auth). Every name carries a per-run prefix, so parallel runs never collide and
// the run's teardown drops exactly what it made.

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of another database on the same server. */
export function databaseUrl(name: string, base = TEST_POSTGRES_URL): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

/** Runs one statement on the server's admin database (CREATE/DROP DATABASE cannot run in a pool transaction). */
export async function adminQuery(sql: string, base = TEST_POSTGRES_URL): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function createDatabase(name: string, template?: string): Promise<string> {
  await adminQuery(`CREATE DATABASE ${quoted(name)}${template ? ` TEMPLATE ${quoted(template)}` : ''}`);
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await adminQuery(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
}

/** Drops every database whose name starts with the prefix (the run's teardown). */
export async function dropDatabasesLike(prefix: string): Promise<void> {
  const { rows } = await adminQuery(
    `SELECT datname FROM pg_database WHERE datname LIKE '${prefix.replace(/[\\%_']/g, '\\$&')}%'`,
  );
  for (const { datname } of rows) await dropDatabase(datname);
}

/** Why PostgreSQL tests cannot run here, or null when the server answers. */
export async function postgresUnreachableReason(): Promise<string | null> {
  try {
    await adminQuery('SELECT 1');
    return null;
  } catch (error) {
    return `PostgreSQL at ${TEST_POSTGRES_URL} is not reachable (${(error as Error).message})`;
  }
}
