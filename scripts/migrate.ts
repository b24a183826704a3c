import { loadConfig } from '../src/server/config';
import { isPostgresUrl } from '../src/server/open-store';
import { PgStore } from '../src/server/store/postgres/pg-store';

// `npm run migrate`: brings the PostgreSQL schema of DATABASE_URL up to date (numbered files in
// src/server/store/postgres/migrations), then exits. Instances also migrate on start; running this first lets
// a deploy fail early on a schema problem rather than in every instance. SQLite migrates itself on open.
async function main() {
  const config = loadConfig();
  if (!isPostgresUrl(config.DATABASE_URL)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (the SQLite store migrates itself when it opens).');
  }
  const store = PgStore.open({
    connectionString: config.DATABASE_URL,
    statementTimeoutMs: 600_000,
    connectTimeoutMs: config.PG_CONNECT_TIMEOUT_MS,
  });
  try {
    const applied = await store.migrate();
    console.log(applied.length ? `Applied ${applied.join(', ')}.` : 'Schema is up to date.');
  } finally {
    await store.close();
  }
}

main().catch((error: Error) => {
  console.error(`Migration failed: ${error.message}`);
  process.exit(1);
});
