import { buildApp } from '../../src/server/app';
import { openStore } from '../../src/server/store/open-store';

// The API as the benchmark drives it: the real app (buildApp) on the store gen loaded, in its own process
// so that the load generator does not share its event loop. Tells the parent its port over IPC.

async function main() {
  const choice = JSON.parse(process.env.BENCH_STORE ?? '{}') as { dataDir: string; databaseUrl?: string };
  const store = await openStore({ ...choice, seedWhenEmpty: false });
  if (!(await store.hasData())) throw new Error(`no data set in ${choice.databaseUrl ?? choice.dataDir}: run npm run gen first`);
  const app = await buildApp({ store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
  process.once('disconnect', () => void app.close().then(() => store.close()).then(() => process.exit(0)));
}

main().catch((error: Error) => {
  console.error(`bench server failed: ${error.message}`);
  process.exit(1);
});
