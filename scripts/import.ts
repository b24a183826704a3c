import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { MultiBar, type SingleBar } from 'cli-progress';
import { openConfiguredStore } from '../src/server/open-store';
import { IMPORT_KINDS, type ImportKind } from '../src/server/importer/kinds';
import { formatDifference } from '../src/server/desk/format';
import { formatReport, importFile } from '../src/server/desk/shell-import';
import { yieldToLookups } from '../src/server/worker-thread';

// npm run import -- <branches|partners|agents> <file> [--dry-run] [--skip-invalid] [--allow-removals] [--json]
// The operations desk's path (docs/import.md): the file is diffed against the published data and the difference
// printed first; a file removing more than 20 % of a country's rows or of the kind is refused unless
// --allow-removals; what is applied is recorded as a version (rollback-able from the desk) and audited with the
// shell user's name. --json prints the report (every problem, the outcome, the phase times, the difference) as
// JSON instead of text.
// Exit codes: 0 applied (or a clean dry run), 1 bad rows, file problems or refused by the guard, 2 wrong usage or
// store failure.
const USAGE =
  'usage: npm run import -- <branches|partners|agents> <file.csv|file.json> [--dry-run] [--skip-invalid] [--allow-removals] [--json]';

async function main(): Promise<number> {
  // An import on a machine that also serves lookups takes the CPU they leave (worker-thread.ts).
  yieldToLookups();
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      'skip-invalid': { type: 'boolean', default: false },
      'allow-removals': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const [kind, file] = positionals;
  if (positionals.length !== 2 || !IMPORT_KINDS.includes(kind as ImportKind)) {
    console.error(USAGE);
    return 2;
  }
  const store = await openConfiguredStore();
  // A bar of the rows validated is for people watching a terminal; logs and pipes get the phase lines, a line at
  // each quarter of the rows, and the summary.
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
      allowRemovals: values['allow-removals'],
      onProgress: ({ phase, done, total }) => {
        if (phase !== 'validating' || total === 0) return;
        if (!bars) {
          // Logs get a line at each quarter of the rows validated.
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
    // The difference the file makes, as the desk shows it to a checker; then the outcome.
    const difference = report.difference
      ? formatDifference(kind as ImportKind, report.difference, report.baseVersion)
      : null;
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else {
      if (difference) console.log(difference);
      console.log(
        report.overGuard
          ? 'NOT applied: over the removal guard; the served data is unchanged. Check the file, then run again with --allow-removals to apply it.'
          : formatReport(report) +
              (report.version === null
                ? ''
                : `\nrecorded as version ${report.version} by ${userInfo().username} (roll back from the operations desk)`),
      );
    }
    return report.problems.length > 0 || report.overGuard ? 1 : 0;
  } finally {
    bars?.stop();
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
