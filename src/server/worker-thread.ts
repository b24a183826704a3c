import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

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
