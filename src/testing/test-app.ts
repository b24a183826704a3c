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

/** The real app on a private copy of the seeded SQLite database (see global-setup.ts). */
export async function createTestApp(options: Partial<AppOptions> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'rpl-app-'));
  const file = join(dir, 'lookup.sqlite');
  copyFileSync(inject('seededSqliteFile'), file);
  const store = options.store ?? SqliteStore.open(file);
  const app = await buildApp({ ...options, store });
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
