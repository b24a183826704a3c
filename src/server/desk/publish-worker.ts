import { parentPort, workerData } from 'node:worker_threads';
import { openOwnConnection } from '../store/own-connection';
import type { StoreSource } from '../store/store';
import { yieldToLookups } from '../worker-thread';
import { publishOn, type PublishJob, type PublishMessage } from './publish';

// A worker thread of the operations desk: publishes one approved change (publish.ts, publishOn) through its own
// writable connection to the store, at a lower priority than the lookups, and posts the outcome with the
// version's snapshot.

yieldToLookups();
const { source, job } = workerData as { source: StoreSource; job: PublishJob };
const post = (message: PublishMessage) => parentPort!.postMessage(message);
const store = openOwnConnection(source, { writable: true });
try {
  post({ type: 'outcome', outcome: await publishOn(store, job) });
} catch (error) {
  post({ type: 'failed', message: (error as Error).stack ?? String(error) });
} finally {
  await store.close();
}
