import { parseArgs } from 'node:util';
import { openStore } from '../src/server/open-store';
import {
  DEFAULT_GENERATED_SEED,
  dataSetHash,
  generateSeedFiles,
  generatedDataSet,
  writeSeedFiles,
} from '../src/server/seed/generate';
import { STORE_OPTIONS, storeChoice } from './lib/store-options';

// npm run gen -- --branches 1000000 --agents 500000 [--seed 7] [--out dir] [--store sqlite|postgres]
//   [--data-dir dir] [--database-url url]
// Builds a deterministic large data set and loads it into the store the way the importer does
// (store.replaceDataSet); --out also writes it as CSV files in the data/seed layout.

const { values } = parseArgs({
  options: {
    branches: { type: 'string', default: '1000000' },
    agents: { type: 'string', default: '500000' },
    seed: { type: 'string', default: String(DEFAULT_GENERATED_SEED) },
    out: { type: 'string' },
    ...STORE_OPTIONS,
  },
});

const count = (name: string, text: string) => {
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a whole number, not "${text}"`);
  return Number(text);
};

async function main() {
  const branches = count('branches', values.branches);
  const agents = count('agents', values.agents);
  const seed = count('seed', values.seed);
  const choice = storeChoice(values);
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

  const files = generateSeedFiles({ branches, agents, seed });
  const dataSet = generatedDataSet(files, seed);
  if (values.out) {
    writeSeedFiles(files, dataSet, values.out);
    console.log(`Wrote CSV files to ${values.out} (${elapsed()})`);
  }
  console.log(`Generated ${dataSet.branches.length} bank branches and ${dataSet.agents.length} agents (${elapsed()})`);
  console.log(`Data set hash ${dataSetHash(dataSet)}`);

  const store = await openStore({ ...choice, seedWhenEmpty: false });
  try {
    await store.replaceDataSet(dataSet);
  } finally {
    await store.close();
  }
  console.log(`Loaded into ${store.engine} ${choice.databaseUrl ? '' : choice.dataDir} (${elapsed()})`);
}

main().catch((error: Error) => {
  console.error(`gen failed: ${error.message}`);
  process.exit(1);
});
