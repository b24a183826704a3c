import { parentPort, workerData } from 'node:worker_threads';
import { PgStore } from '../server/store/postgres/pg-store';
import { yieldToLookups } from '../server/worker-thread';

// A worker thread that connects to PostgreSQL as the server's background workers do (yielding the CPU first, or
// not), posts that it is connected (with its session's parallel-worker settings) and keeps its connection open
// until told to close (backend-priority.test.ts).

const { connectionString, background } = workerData as { connectionString: string; background: boolean };
if (background) yieldToLookups();
const store = PgStore.open({ connectionString, poolSize: 1 });
await store.dataVersion();
// The settings of its session (the pool holds one connection: the same backend).
const setting = async (name: string) => (await store.pool.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
parentPort!.postMessage({
  connected: true,
  parallelMaintenanceWorkers: await setting('max_parallel_maintenance_workers'),
  parallelWorkersPerGather: await setting('max_parallel_workers_per_gather'),
});
parentPort!.once('message', () => {
  void store.close().then(() => parentPort!.postMessage('closed'));
});
