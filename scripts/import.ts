import { parseArgs } from 'node:util';
import { MultiBar, type SingleBar } from 'cli-progress';
import { loadConfig } from '../src/server/config';
import { openStore } from '../src/server/open-store';
import { IMPORT_KINDS, type ImportKind } from '../src/server/importer/kinds';
import { importFile } from '../src/server/importer/importer';
import { formatReport } from '../src/server/importer/report';

// npm run import -- <branches|partners|agents> <file> [--dry-run] [--skip-invalid] [--json]
// --json prints the report (every problem, the outcome, the phase times) as JSON instead of text.
// Exit codes: 0 applied (or a clean dry run), 1 bad rows or file problems, 2 wrong usage or store failure.
const USAGE =
  'usage: npm run import -- <branches|partners|agents> <file.csv|file.json> [--dry-run] [--skip-invalid] [--json]';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      'skip-invalid': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const [kind, file] = positionals;
  if (positionals.length !== 2 || !IMPORT_KINDS.includes(kind as ImportKind)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const store = await openStore({
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
    log: (m) => console.error(m),
  });
  // Bars (validating, writing: they run side by side on a large file) are for people watching a terminal;
  // logs and pipes get the phase lines, a line at each quarter of each, and the summary.
  const bars = process.stderr.isTTY
    ? new MultiBar({
        stream: process.stderr,
        format: '{phase} {bar} {percentage}% | {value}/{total} rows | {speed} rows/s',
        hideCursor: true,
      })
    : null;
  const barOf = new Map<string, SingleBar>();
  const quartersLogged = new Map<string, number>();
  const started = performance.now();
  try {
    const report = await importFile(store, kind as ImportKind, file, {
      dryRun: values['dry-run'],
      skipInvalid: values['skip-invalid'],
      onProgress: ({ phase, done, total }) => {
        if (!bars) {
          // Logs get a line at each quarter of the rows validated and of the rows written.
          const quarter = Math.floor((4 * done) / total);
          if (done < total && quarter > (quartersLogged.get(phase) ?? 0)) {
            quartersLogged.set(phase, quarter);
            console.error(`${phase} ${quarter * 25}% (${done}/${total} rows)`);
          }
          return;
        }
        let bar = barOf.get(phase);
        if (!bar) barOf.set(phase, (bar = bars.create(total, 0, { phase: phase.padEnd(10), speed: 0 })));
        // Rows per second since the import started, the same measure as the summary line.
        bar.update(done, { speed: Math.round(done / Math.max((performance.now() - started) / 1000, 0.001)) });
      },
      onPhase: (message) => (bars ? bars.log(`${message}\n`) : console.error(message)),
    });
    bars?.stop();
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
    return report.problems.length > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`import failed, nothing was changed: ${error.message}`);
    process.exit(2);
  },
);
