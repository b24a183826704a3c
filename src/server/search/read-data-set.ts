import type { LookupStore } from '../store/store';
import { SearchIndexBuilder } from './build';
import type { SearchIndexData } from './index-data';

/** Scans tried before giving up while imports keep committing. */
const ATTEMPTS = 5;

/**
 * The search index of the served data set, and the data version it is: the store's scan says the version it
 * started from, and the version is looked at again afterwards; when an import committed in between (the
 * version moves with every commit), the scan is done again, so an index never mixes two data sets.
 */
export async function buildFromStore(store: LookupStore): Promise<SearchIndexData> {
  for (let attempt = 1; ; attempt++) {
    const builder = new SearchIndexBuilder();
    const version = await store.scanDataSet(builder);
    if ((await store.dataVersion()) === version) return builder.finish(version);
    if (attempt === ATTEMPTS) throw new Error(`the data set changed during each of ${ATTEMPTS} scans`);
  }
}
