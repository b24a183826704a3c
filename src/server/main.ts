import { buildApp } from './app';
import { loadConfig } from './config';
import { openStore } from './store/open-store';
import { connectRedis } from './redis';

// Starts the service: opens (and on first start seeds) the store, builds the app, listens.
async function main() {
  const config = loadConfig();
  const store = await openStore({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    postgres: { poolSize: config.PG_POOL_SIZE, statementTimeoutMs: config.PG_STATEMENT_TIMEOUT_MS, connectTimeoutMs: config.PG_CONNECT_TIMEOUT_MS },
    log: (m) => console.log(m),
  });
  // Several instances behind a load balancer share their rate-limit counters through Redis.
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, (m) => console.warn(m)) : undefined;
  const app = await buildApp({
    store,
    portalDir: config.PORTAL_DIR,
    logger: { level: config.LOG_LEVEL },
    rateLimit: { max: config.RATE_LIMIT_MAX, timeWindowMs: config.RATE_LIMIT_WINDOW_MS, redis, keyPrefix: config.REDIS_KEY_PREFIX },
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Receiving-Partner Lookup is serving on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}/ (API: /v1, reference: /v1/docs)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app
        .close()
        .then(() => store.close())
        .then(() => redis?.quit())
        .then(() => process.exit(0));
    });
  }
}

main().catch((error: Error) => {
  console.error(`Could not start: ${error.message}`);
  process.exit(1);
});
