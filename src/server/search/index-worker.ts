import { parentPort, workerData } from 'node:worker_threads';
import { yieldToLookups } from '../worker-thread';
import { openOwnConnection } from '../store/own-connection';
import type { StoreSource } from '../store/store';
import { buildFromStore } from './read-data-set';
import { indexSize, transferList, type SearchIndexData } from './build';
import { SearchIndex } from './search-index';

// A worker thread of the server: opens its own connection to the store, scans the served data set (one
// version), builds the search index and posts it to the main thread (the typed arrays move without a copy).
// The main thread keeps answering from the index it has meanwhile.

export type IndexWorkerMessage =
  | { type: 'built'; data: SearchIndexData; buildMs: number; bytes: Record<string, number> }
  | { type: 'failed'; message: string };

async function run() {
  yieldToLookups();
  const store = openOwnConnection(workerData as StoreSource);
  try {
    const started = performance.now();
    const data = await buildFromStore(store);
    // Making the index writes the answer documents into `data` (documents.ts): here, off the main thread.
    new SearchIndex(data);
    const message: IndexWorkerMessage = {
      type: 'built',
      data,
      buildMs: performance.now() - started,
      bytes: indexSize(data),
    };
    parentPort!.postMessage(message, transferList(data));
  } finally {
    await store.close();
  }
}

run().catch((error: Error) =>
  parentPort!.postMessage({ type: 'failed', message: error.stack ?? String(error) } satisfies IndexWorkerMessage),
);
