import { parentPort, workerData } from 'node:worker_threads';
import { RateLimitCounters } from '../server/rate-limit-counters';

// A worker thread counting one key again and again in a shared rate-limit table, as a serving thread's requests
// do (rate-limit-counters.test.ts). It says it is ready, waits on the gate (so every worker starts at once), counts
// `attempts` times and posts how many of its counts were within `max`.

const { buffer, gate, key, attempts, max, windowMs } = workerData as {
  buffer: SharedArrayBuffer;
  gate: SharedArrayBuffer;
  key: string;
  attempts: number;
  max: number;
  windowMs: number;
};
const counters = new RateLimitCounters(buffer);
const open = new Int32Array(gate);
parentPort!.postMessage('ready');
Atomics.wait(open, 0, 0);
let allowed = 0;
let highest = 0;
for (let i = 0; i < attempts; i++) {
  const { current } = counters.incr(key, windowMs);
  if (current <= max) allowed++;
  highest = Math.max(highest, current);
}
parentPort!.postMessage({ allowed, highest });
