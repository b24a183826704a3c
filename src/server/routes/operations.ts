import { threadId } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { aliveResponse, readyResponse } from '../../contract';
import { ProblemError } from '../problems';

// Health for orchestrators and load balancers; like /metrics they take no correspondent header.
export default async function operationsRoutes(app: FastifyInstance) {
  // Alive: the process answers HTTP. Says nothing about the store, so a store outage does not get the
  // process restarted in a loop.
  app.get('/healthz', { logLevel: 'warn' }, async (): Promise<z.infer<typeof aliveResponse>> => ({ status: 'alive' }));

  // Ready: the store answers and holds a data set, so lookups can be served.
  app.get('/readyz', { logLevel: 'warn' }, async (request): Promise<z.infer<typeof readyResponse>> => {
    let loaded: boolean;
    try {
      loaded = await app.store.hasData();
    } catch (error) {
      request.log.error({ err: error }, 'readiness: store unreachable');
      throw new ProblemError('unavailable', 'The store is not reachable.', [], { 'retry-after': '5' });
    }
    if (!loaded) throw new ProblemError('unavailable', 'No data set is loaded yet.', [], { 'retry-after': '5' });
    if (!app.searchIndex.ready)
      throw new ProblemError('unavailable', 'The search index is being built.', [], { 'retry-after': '2' });
    const build = app.searchIndex.lastBuild!;
    const searchIndex = {
      dataVersion: build.version,
      branches: build.branches,
      agents: build.agents,
      buildMs: Math.round(build.buildMs),
      from: build.from,
      bytes: build.bytes,
    };
    // Redis down is degraded, not unready: lookups are served (without rate-limit counting), and taking every
    // instance out of the load balancer because the shared Redis stalled would turn a nuisance into an outage.
    const redis = app.redis?.degradedReason();
    if (redis)
      return {
        status: 'degraded',
        engine: app.store.engine,
        searchIndex,
        thread: threadId,
        degraded: [{ dependency: 'redis', detail: redis }],
      };
    return { status: 'ready', engine: app.store.engine, searchIndex, thread: threadId };
  });
}
