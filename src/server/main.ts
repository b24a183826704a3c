import './v8-flags';
import closeWithGrace from 'close-with-grace';
import { ServingThreads } from './serving-threads';
import { loadConfig } from './config';
import { startApp } from './start-app';
import { startMetricsServer } from './plugins/app/metrics';
import { RateLimitCounters } from './rate-limit-counters';
import { newLeaseOwner } from './desk/recovery';

// Starts the service: opens (and on first start seeds) the store, builds the app (start-app.ts), listens.
// SERVING_THREADS threads (by default one per core) answer on the port from the one search index this thread
// builds (serving-threads.ts), with one set of rate-limit counters (rate-limit-counters.ts; Redis when configured).

async function main() {
  const config = loadConfig();
  // Without Redis every rate limit counts in this table, which the serving threads share.
  const rateLimitCounters = config.REDIS_URL ? undefined : new RateLimitCounters();
  // One desk lease holder for the process: its threads never take over each other's stagings and publishes.
  const leaseOwner = newLeaseOwner();
  // SERVING_THREADS=n: n-1 more threads answer on the same port from the index this thread builds.
  const threads =
    config.SERVING_THREADS > 1
      ? new ServingThreads(config.SERVING_THREADS - 1, { rateLimitCounters, leaseOwner })
      : undefined;
  const { app, close } = await startApp(config, threads ? { searchIndexHandOn: threads.handOn } : {}, {
    rateLimitCounters,
    leaseOwner,
  });
  threads?.attach(app.searchIndex, app.log);

  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : await startMetricsServer(app.metricsRegistry, config.METRICS_PORT, config.METRICS_HOST);

  // SIGTERM/SIGINT: app.close() stops accepting, lets in-flight requests finish (new ones on kept-alive
  // connections get 503), then the store and Redis close and the process exits 0. Past SHUTDOWN_GRACE_MS it
  // gives up and exits 1; an uncaught error also closes and exits 1. The serving threads close first.
  closeWithGrace({ delay: config.SHUTDOWN_GRACE_MS, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an uncaught error');
    else app.log.info({ signal }, 'closing: finishing in-flight requests');
    await threads?.close();
    await close();
    metricsServer?.close();
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  threads?.start(app.server);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(
    `Receiving-Partner Lookup is serving on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}/ (API: /v1, reference: /v1/docs)`,
  );
}

main().catch((error: Error) => {
  console.error(`Could not start: ${error.message}`);
  process.exit(1);
});
