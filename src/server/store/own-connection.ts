import { PgStore } from './postgres/pg-store';
import { SqliteStore } from './sqlite/sqlite-store';
import type { LookupStore, StoreSource } from './store';

/**
 * A worker thread's own connection to the store (the search index build, the desk's staging and publishing):
 * read-only unless `writable` (publishing), without a memory map, so reading a large file adds no resident pages.
 */
export function openOwnConnection(source: StoreSource, options: { writable?: boolean } = {}): LookupStore {
  if (source.engine === 'postgres')
    return PgStore.open({ connectionString: source.connectionString, poolSize: 1, statementTimeoutMs: 600_000 });
  const store = SqliteStore.open(source.file, { readonly: !options.writable });
  store.db.pragma('mmap_size = 0');
  return store;
}
