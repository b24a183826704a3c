import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on a module of this project. Under tsx (development, tests) the module is TypeScript,
 * and a worker thread does not inherit its parent's loader: it registers tsx's first.
 */
export function startWorker(module: URL, workerData: unknown, options: { resourceLimits?: Worker['resourceLimits'] } = {}): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, { workerData, ...options });
  return new Worker(
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
      .then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`,
    { eval: true, workerData, ...options },
  );
}
