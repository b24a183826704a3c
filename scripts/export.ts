import { writeFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { openConfiguredStore } from '../src/server/open-store';
import { IMPORT_KINDS, type ImportKind } from '../src/server/importer/kinds';
import { exportCsv } from '../src/server/importer/exporter';

// npm run export -- <branches|partners|agents> [--out file] [--country XX]
// Writes what is served, in the import format, to the file or to stdout.
const USAGE = 'usage: npm run export -- <branches|partners|agents> [--out file.csv] [--country XX]';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string' }, country: { type: 'string' } },
  });
  const [kind] = positionals;
  if (positionals.length !== 1 || !IMPORT_KINDS.includes(kind as ImportKind)) {
    console.error(USAGE);
    return 2;
  }
  const store = await openConfiguredStore();
  try {
    const { csv, rows } = await exportCsv(store, kind as ImportKind, { country: values.country?.toUpperCase() });
    if (values.out) {
      writeFileSync(values.out, csv);
      console.error(`exported ${rows} ${kind} rows to ${values.out}`);
    } else {
      // A pipe takes what fits and queues the rest: wait until all of it is handed to the OS.
      process.stdout.end(csv);
      await finished(process.stdout);
    }
    return 0;
  } finally {
    await store.close();
  }
}

// exitCode rather than process.exit(): exiting would cut off output still queued for a slow reader.
main().then(
  (code) => (process.exitCode = code),
  (error: Error) => {
    console.error(`export failed: ${error.message}`);
    process.exitCode = 2;
  },
);
