import { userInfo } from 'node:os';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { MultiBar, type SingleBar } from 'cli-progress';
import { loadConfig } from '../src/server/config';
import { openStore } from '../src/server/open-store';
import { IMPORT_KINDS, type ImportKind } from '../src/server/importer/kinds';
import { importFile } from '../src/server/importer/importer';
import { formatReport } from '../src/server/importer/report';
import { DeskEngine } from '../src/server/desk/engine';
import { formatDifference } from '../src/server/desk/format';
import type { OpsActor } from '../src/server/desk/desk';
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
  const desk = new DeskEngine(store);
  const actor: OpsActor = { name: userInfo().username, roles: ['maker', 'checker'], via: 'shell' };
  /** The entries of a difference not (yet) recorded as a version: dropped whatever happens next. */
  let unrecorded: string | null = null;
  try {
    // First the difference the file would make, as the desk shows it to a checker.
    const { id, prepared, served, version } = await desk.prepareFromShell(kind as ImportKind, file, basename(file), {
      skipInvalid: values['skip-invalid'],
    });
    unrecorded = id;
    const difference = prepared.diff ? formatDifference(kind as ImportKind, prepared.diff.summary, version) : null;
    if (difference && !values.json) console.log(difference);
    // A file with bad rows applies nothing (but with --skip-invalid): the importer reports them; the guard speaks
    // of a file that would be applied.
    const applicable = prepared.rowsBad === 0 || values['skip-invalid'];
    if (applicable && prepared.diff?.summary.guard.flagged && !values['dry-run'] && !values['allow-removals']) {
      await desk.recordOpsEvent({
        actor: actor.name,
        via: actor.via,
        action: 'import-refused',
        target: prepared.fileName,
        detail: {
          kind,
          sha256: prepared.sha256,
          diff: prepared.diff.summary.counts,
          guard: prepared.diff.summary.guard,
        },
      });
      const message = `NOT applied: over the removal guard; the served data is unchanged. Check the file, then run again with --allow-removals to apply it.`;
      console.log(
        values.json
          ? JSON.stringify({ applied: false, refused: message, difference: prepared.diff.summary }, null, 2)
          : message,
      );
      return 1;
    }
    const report = await importFile(store, kind as ImportKind, file, {
      expectedVersion: version,
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
    // Applied: a version the desk can roll back to, and the audit row with the shell user's name.
    const versionId = report.applied
      ? await desk.recordShellImport(actor, id, prepared, kind as ImportKind, served, version)
      : null;
    if (versionId !== null) unrecorded = null;
    console.log(
      values.json
        ? JSON.stringify({ ...report, difference: prepared.diff?.summary ?? null, version: versionId }, null, 2)
        : formatReport(report) +
            (versionId === null
              ? ''
              : `\nrecorded as version ${versionId} by ${actor.name} (roll back from the operations desk)`),
    );
    return report.problems.length > 0 ? 1 : 0;
  } finally {
    if (unrecorded) await desk.forgetShellImport(unrecorded);
    await desk.close();
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
