import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { setPriority } from 'node:os';

/**
 * Starts a worker thread on a module of this project, named by its compiled file (`./x.js` next to the caller).
 * In the compiled build (dist/server, every entry bundled flat beside main.js) that file exists and runs as is.
 * From source (tsx, vitest) it does not: the worker runs the `.ts` beside it through tsx-worker.mjs, which
 * registers tsx first — a worker thread does not inherit its parent's loader.
 */
export function startWorker(
  module: URL,
  workerData: unknown,
  options: { resourceLimits?: Worker['resourceLimits'] } = {},
): Worker {
  if (existsSync(fileURLToPath(module))) return new Worker(module, { workerData, ...options });
  const source = new URL(module.href.replace(/\.js$/, '.ts'));
  // Named first, not written inside `new Worker(…)`: Vite (the portal's tests import the server) rewrites that
  // pattern as a browser worker.
  const bootstrap = new URL('./tsx-worker.mjs', import.meta.url);
  return new Worker(bootstrap, { ...options, workerData, argv: [source.href] });
}

/**
 * Called inside a worker thread that does background work (staging a change, validating, building the search
 * index), and by the import command (scripts/import.ts) for its whole process: lowers its CPU priority (nice
 * 10), so on a busy machine the server's lookups get the cores first and the background work takes what is
 * left. On Linux the nice value is a thread's own (os.setPriority(0, n) sets the calling thread's; threads
 * started after it inherit it); where it cannot be lowered nothing changes.
 */
export function yieldToLookups(): void {
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // not permitted here: the thread keeps its priority
  }
}

export const BACKGROUND_NICE = 10;
