import { PgStore } from './postgres/pg-store';
import { SqliteStore } from './sqlite/sqlite-store';
import type { LookupStore, StoreSource } from './store';

/**
 * A worker thread's own connection to the store (the search index build, the desk's staging): read-only,
 * without a memory map, so reading a large file adds no resident pages.
 */
export function openOwnConnection(source: StoreSource): LookupStore {
  if (source.engine === 'postgres')
    return PgStore.open({ connectionString: source.connectionString, poolSize: 1, statementTimeoutMs: 600_000 });
  const store = SqliteStore.open(source.file, { readonly: true });
  store.db.pragma('mmap_size = 0');
  return store;
}
