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

/** How a worker's messages settle its run (runWorker). */
export interface WorkerOutcome<T> {
  resolve(value: T | Promise<T>): void;
  reject(error: Error): void;
}

/**
 * Runs a worker (startWorker) until `onMessage` settles its run; an error it throws (mapped by `onError`) or its
 * exit before that rejects, naming `what`. The worker is terminated once the run is settled.
 */
export function runWorker<T, M>(
  module: URL,
  workerData: unknown,
  what: string,
  onMessage: (message: M, outcome: WorkerOutcome<T>) => void,
  options: { resourceLimits?: Worker['resourceLimits']; onError?: (error: Error & { code?: string }) => Error } = {},
): Promise<T> {
  const worker = startWorker(module, workerData, options);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    const outcome: WorkerOutcome<T> = {
      resolve: (value) => settle(() => resolve(value)),
      reject: (error) => settle(() => reject(error)),
    };
    worker.on('message', (message: M) => onMessage(message, outcome));
    worker.on('error', (error) => outcome.reject(options.onError?.(error) ?? error));
    worker.on('exit', (code) => outcome.reject(new Error(`the ${what} worker stopped (exit code ${code})`)));
  });
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
