import { parentPort, workerData } from 'node:worker_threads';
import { PgStore } from '../server/store/postgres/pg-store';
import { yieldToLookups } from '../server/worker-thread';

// A worker thread that connects to PostgreSQL as the server's background workers do (yielding the CPU first, or
// not), posts 'connected' and keeps its connection open until told to close (backend-priority.test.ts).

const { connectionString, background } = workerData as { connectionString: string; background: boolean };
if (background) yieldToLookups();
const store = PgStore.open({ connectionString, poolSize: 1 });
await store.dataVersion();
parentPort!.postMessage('connected');
parentPort!.once('message', () => {
  void store.close().then(() => parentPort!.postMessage('closed'));
});
