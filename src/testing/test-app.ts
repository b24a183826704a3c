import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../server/app';
import { SqliteStore } from '../server/store/sqlite/sqlite-store';
import type { LookupStore } from '../server/store/store';

export const FINANCIAL_ID = 'AB12CD';
export const LOOKUP_HEADERS = { 'x-fapi-financial-id': FINANCIAL_ID };

export interface TestApp {
  app: FastifyInstance;
  store: LookupStore;
  /** GET with the lookup headers; `query` values are sent as given (arrays repeat the key). */
  get(path: string, query?: Record<string, string | string[]>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export type TestEngine = 'sqlite' | 'postgres';

/**
 * The store engines the API suite runs against. Suites use `describe.each(testEngines())`, so one suite
 * covers every engine (the PostgreSQL store adds itself here when a server is reachable).
 */
export function testEngines(): TestEngine[] {
  return ['sqlite'];
}

/** A fresh store of the engine holding the seeded real data, private to the caller. */
export async function openTestStore(engine: TestEngine, dir: string): Promise<LookupStore> {
  if (engine !== 'sqlite') throw new Error(`no test store for ${engine}`);
  const file = join(dir, 'lookup.sqlite');
  copyFileSync(inject('seededSqliteFile'), file);
  return SqliteStore.open(file);
}

/** The real app on a private copy of the seeded data (see global-setup.ts). */
export async function createTestApp(options: Partial<AppOptions> & { engine?: TestEngine } = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-app-'));
  const { engine = 'sqlite', ...appOptions } = options;
  const store = appOptions.store ?? (await openTestStore(engine, dir));
  const app = await buildApp({ ...appOptions, store });
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
