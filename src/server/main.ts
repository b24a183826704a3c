import { buildApp } from './app';
import { loadConfig } from './config';
import { openStore } from './store/open-store';

// Starts the service: opens (and on first start seeds) the store, builds the app, listens.
async function main() {
  const config = loadConfig();
  const store = await openStore({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL, log: (m) => console.log(m) });
  const app = await buildApp({ store, portalDir: config.PORTAL_DIR, logger: { level: config.LOG_LEVEL } });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Receiving-Partner Lookup is serving on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}/ (API: /v1, reference: /v1/docs)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => store.close()).then(() => process.exit(0));
    });
  }
}

main().catch((error: Error) => {
  console.error(`Could not start: ${error.message}`);
  process.exit(1);
});
