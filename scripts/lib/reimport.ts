import { parseArgs } from 'node:util';
import { openStore } from '../../src/server/open-store';
import { STORE_OPTIONS, storeChoice } from './store-options';
import { yieldToLookups } from '../../src/server/worker-thread';

// The bench's import under load: reads the served data set and replaces it with itself through
// store.replaceDataSet, as an import does (a new data version, the same rows, so the same answers before and
// after the swap). Prints the milliseconds the read and the replace took.

const { values } = parseArgs({ options: STORE_OPTIONS });

async function main() {
  // As the import command does (scripts/import.ts): it yields the CPU to the server's lookups.
  yieldToLookups();
  const store = await openStore({ ...storeChoice(values), seedWhenEmpty: false });
  try {
    const started = performance.now();
    const { dataSet } = await store.readDataSet();
    const read = performance.now();
    await store.replaceDataSet(dataSet);
    console.log(
      JSON.stringify({ readMs: Math.round(read - started), replaceMs: Math.round(performance.now() - read) }),
    );
  } finally {
    await store.close();
  }
}

main().catch((error: Error) => {
  console.error(`reimport failed: ${error.message}`);
  process.exit(1);
});
