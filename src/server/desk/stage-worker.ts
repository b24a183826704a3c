import { parentPort, workerData } from 'node:worker_threads';
import { yieldToLookups } from '../worker-thread';
import { diffRowOf } from './diff';
import { stageChange } from './prepare';
import type { StageJob, StageMessage } from './stage-in-worker';

// A worker thread of the operations desk: stages one change (prepare.ts, stageChange) on the machine's other
// core, so the event loop that answers lookups only writes the difference's entries. Entries go out in batches
// as desk_diff rows; when the writer falls behind by STAGE_BATCHES_AHEAD batches this thread waits (Atomics on
// the shared counter), so the batches in flight never hold more than a few thousand entries.

yieldToLookups();
const job = workerData as StageJob;
const post = (message: StageMessage) => parentPort!.postMessage(message);
const inFlight = new Int32Array(job.inFlight);
try {
  const { onEntries: wanted, ...options } = job.options;
  const staged = await stageChange(job.kind, job.source, job.fileName, job.served, {
    ...options,
    onProgress: (progress) => post({ type: 'progress', progress }),
    onEntries: wanted
      ? (entries) => {
          for (let now = Atomics.load(inFlight, 0); now >= job.batchesAhead; now = Atomics.load(inFlight, 0))
            Atomics.wait(inFlight, 0, now, 1000);
          Atomics.add(inFlight, 0, 1);
          post({ type: 'entries', rows: entries.map(diffRowOf) });
        }
      : undefined,
  });
  post({ type: 'done', staged });
} catch (error) {
  post({ type: 'failed', message: (error as Error).stack ?? String(error) });
}
