import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../server/app';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';
import { PgStore, type PgStoreOptions } from '../server/store/postgres/pg-store';
import type { LookupStore } from '../server/store/store';
import { createDatabase, dropDatabase, uniqueName } from './postgres';
import { checkEveryAnswer } from './openapi-check';

export const FINANCIAL_ID = 'AB12CD';
export const LOOKUP_HEADERS = { 'x-fapi-financial-id': FINANCIAL_ID };

export interface TestApp {
  app: FastifyInstance;
  store: LookupStore;
  /** GET with the lookup headers; `query` values are sent as given (arrays repeat the key). */
  get(
    path: string,
    query?: Record<string, string | string[]>,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export type TestEngine = 'sqlite' | 'postgres';

/**
 * The store engines the API suite runs against. Suites use `describe.each(testEngines())`, so one suite
 * covers every engine (the PostgreSQL store adds itself here when a server is reachable).
 */
export function testEngines(): TestEngine[] {
  // global-setup.ts printed why when PostgreSQL is left out (and failed instead under REQUIRE_POSTGRES=1).
  return inject('seededPostgresDatabase') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A private copy of the seeded PostgreSQL database (CREATE DATABASE … TEMPLATE, a file copy: no reseeding).
 * `drop` removes it; the run's teardown drops any left behind.
 */
export async function createTestPostgresDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const seeded = inject('seededPostgresDatabase');
  if (!seeded) throw new Error('PostgreSQL is not available in this run (see the global setup message)');
  const name = uniqueName(seeded.replace(/_seed$/, ''));
  const url = await createDatabase(name, seeded);
  return { name, url, drop: () => dropDatabase(name) };
}

/** A fresh store of the engine holding the seeded real data, private to the caller. */
export async function openTestStore(
  engine: TestEngine,
  dir: string,
  postgres: Partial<PgStoreOptions> = {},
): Promise<LookupStore> {
  if (engine === 'postgres') {
    const database = await createTestPostgresDatabase();
    const store = PgStore.open({ connectionString: database.url, ...postgres });
    // Closing the store also drops its private database.
    const close = store.close.bind(store);
    store.close = async () => {
      await close();
      await database.drop();
    };
    return store;
  }
  const file = join(dir, 'lookup.sqlite');
  copyFileSync(inject('seededSqliteFile'), file);
  return SqliteStore.open(file);
}

/** The real app on a private copy of the seeded data (see global-setup.ts). */
export async function createTestApp(options: Partial<AppOptions> & { engine?: TestEngine } = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-app-'));
  const { engine = 'sqlite', ...appOptions } = options;
  const store = appOptions.store ?? (await openTestStore(engine, dir));
  const app = await buildApp({ searchIndexBuild: 'inline', ...appOptions, store });
  // Every answer a test sees holds to the OpenAPI document (status, headers, body), or the request fails.
  checkEveryAnswer(app);
  return {
    app,
    store,
    get(path, query = {}, headers = LOOKUP_HEADERS) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) for (const v of [value].flat()) search.append(key, v);
      const qs = search.toString();
      return app.inject({ method: 'GET', url: qs ? `${path}?${qs}` : path, headers } satisfies InjectOptions);
    },
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
