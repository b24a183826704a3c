import { join } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { loadConfig } from '../../src/server/config';

// The store options gen and bench share: the same store is opened the way the server opens it (openStore),
// so the benchmark runs against either engine with the same flags.

export const STORE_OPTIONS = {
  store: { type: 'string', default: 'sqlite' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
} satisfies ParseArgsConfig['options'];

/** The benchmark's own folder (git-ignored), so generating never replaces a development data set in var/. */
export const BENCH_DIR = join(process.cwd(), '.bench');

export interface StoreChoice {
  dataDir: string;
  databaseUrl?: string;
}

export function storeChoice(values: { store?: string; 'data-dir'?: string; 'database-url'?: string }): StoreChoice {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: values['data-dir'] ?? process.env.BENCH_DATA_DIR ?? join(BENCH_DIR, 'data'),
  });
  if (values.store === 'postgres') {
    const databaseUrl = values['database-url'] ?? config.DATABASE_URL;
    if (!databaseUrl) throw new Error('--store postgres needs --database-url postgres://… (or DATABASE_URL)');
    return { dataDir: config.DATA_DIR, databaseUrl };
  }
  if (values.store !== 'sqlite') throw new Error(`--store must be sqlite or postgres, not ${values.store}`);
  return { dataDir: config.DATA_DIR };
}
