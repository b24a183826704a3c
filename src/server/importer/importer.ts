import type { DataSet } from '../domain/data-set';
import { startWorker } from '../worker-thread';
import { DataSetChangedError, type LookupStore } from '../store/store';
import { KIND_DEFINITIONS, type GoodRow, type ImportKind, type ImportKindDefinition, type KindCheck } from './kinds';
import { loadImportFile, parseImportFile, type FileProblem, type FileProgress, type FileRecord } from './read-file';
import { goodRows, validateRecords, type Validation, type ValidationJob, type ValidationMessage } from './validate';

// An import: read the file, validate every row, and — when nothing is wrong, or with --skip-invalid when
// the bad rows are left out — build the whole new data set and hand it to the store's replaceDataSet, one
// transaction. Works on any LookupStore, so every engine gets imports for free.
//
// A large file is validated in a worker thread while this thread writes the new data set, as if every row
// were good, into a transaction that is committed only on a clean verdict (the machine's second core does the
// validating). With a bad row the transaction is rolled back; --skip-invalid then writes the good rows.

export interface ImportOptions {
  /** Validate and report; change nothing. */
  dryRun?: boolean;
  /** Apply the good rows and report the bad ones, instead of applying nothing. */
  skipInvalid?: boolean;
  onProgress?: (progress: FileProgress) => void;
  /** Phase announcements ("Validating …", "Replacing …") for the command's log. */
  onPhase?: (message: string) => void;
  /**
   * The data version the caller based its decision on (the desk's difference, shown before the import): when
   * another import committed since, nothing is applied (reported like a replace refused as changed).
   */
  expectedVersion?: string;
}

/** Files with at least this many rows are validated in a worker while the new data set is written. */
export const PARALLEL_FROM_ROWS = 20_000;

export interface ImportReport {
  kind: ImportKind;
  file: string;
  sha256: string;
  rowsRead: number;
  rowsValid: number;
  /** Rows with at least one problem. */
  rowsBad: number;
  /** Every problem, by line: bad rows and problems of the file or of the resulting data set. */
  problems: FileProblem[];
  applied: boolean;
  /** What the import replaces (or would replace): "the branches of BD", "all agents". */
  scope: string;
  /** Why nothing was applied, when nothing was. */
  notApplied?: string;
  /** Whether the rows were validated in a worker thread while the new data set was being written. */
  parallel: boolean;
  /**
   * Seconds from the start: `read` the file parsed, `validate` every row checked, `commit` the new data set
   * committed (served from then on), `total` the command's work done (after the commit: the store's
   * housekeeping, e.g. SQLite's WAL checkpoint). `write` is the replace alone, start to commit.
   */
  seconds: { read: number; validate: number; write: number; commit: number; total: number };
  /** Rows read per second from reading to commit (to the end when nothing was applied). */
  rowsPerSecond: number;
}

const byLine = (a: FileProblem, b: FileProblem) => (a.line ?? 0) - (b.line ?? 0);

export async function importFile(
  store: LookupStore,
  kind: ImportKind,
  path: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  return runImport(store, KIND_DEFINITIONS[kind] as ImportKindDefinition<unknown>, path, options);
}

async function runImport<R>(
  store: LookupStore,
  definition: ImportKindDefinition<R>,
  path: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const phase = options.onPhase ?? (() => {});
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  const since = () => (performance.now() - started) / 1000;
  const seconds = { read: 0, validate: 0, write: 0, commit: 0, total: 0 };

  const input = loadImportFile(path);
  const file = 'bytes' in input ? input : null;
  const read = file ? parseImportFile(file.file, file.bytes, definition.columns) : null;
  seconds.read = since();
  const report: ImportReport = {
    kind: definition.kind,
    file: file?.file ?? path.split('/').pop()!,
    sha256: file?.sha256 ?? '',
    rowsRead: read?.records.length ?? 0,
    rowsValid: 0,
    rowsBad: 0,
    problems: read ? [...read.fileProblems] : [input as FileProblem],
    applied: false,
    scope: '',
    parallel: false,
    seconds,
    rowsPerSecond: 0,
  };
  const finish = (notApplied?: string) => {
    seconds.total = since();
    const measured = report.applied ? seconds.commit : seconds.total;
    report.rowsPerSecond = measured > 0 ? Math.round(report.rowsRead / measured) : 0;
    report.problems.sort(byLine);
    if (notApplied) report.notApplied = notApplied;
    return report;
  };
  if (!file || !read || read.fileProblems.length) return finish('the file itself has problems');
  const { records } = read;
  const source = { kind: definition.kind, file: file.file, sha256: file.sha256 };

  // The served set and its version, read in one snapshot: the replace is refused if another import commits
  // after this read, rather than writing back the other kinds as they were here and undoing that import.
  const { dataSet: served, version: servedVersion } = await store.readDataSet();
  if (options.expectedVersion !== undefined && options.expectedVersion !== servedVersion) {
    report.problems.push({
      line: null,
      column: null,
      reason: new DataSetChangedError(options.expectedVersion, servedVersion).message,
    });
    return finish('the served data set changed meanwhile (another import committed)');
  }
  const check = definition.prepare(served);
  const replace = async (dataSet: DataSet, commitWhen: Promise<boolean>) => {
    const writeStarted = performance.now();
    const committed = await store.replaceDataSet(dataSet, {
      commitWhen,
      expectedVersion: servedVersion,
      onProgress: (done, total) => progress({ phase: 'writing', done, total }),
      onCommit: () => {
        seconds.commit = since();
        seconds.write = (performance.now() - writeStarted) / 1000;
      },
    });
    if (committed) report.applied = true;
    return committed;
  };

  // A large file, to be applied: validated in a worker while the data set (every row taken as good) is written.
  const parallel = !options.dryRun && records.length >= PARALLEL_FROM_ROWS;
  let validation: Promise<Validation>;
  let speculative: Promise<boolean> = Promise.resolve(false);
  if (parallel) {
    report.parallel = true;
    phase(`Validating ${records.length} rows of ${report.file} in a worker thread …`);
    validation = validateInWorker(
      { kind: definition.kind, file: file.file, bytes: file.bytes, served },
      progress,
    ).catch((error: Error) => {
      // No worker (a runtime without one): the same validation, in this thread.
      phase(`The validation worker failed (${error.message.split('\n')[0]}); validating in this thread …`);
      report.parallel = false;
      return validateRecords(definition, records, definition.prepare(served), progress);
    });
    const next = buildAll(check, records, source);
    if (next && next.problems.length === 0) {
      phase(`Replacing ${next.scope} in one transaction, committed only if every row is valid …`);
      report.scope = next.scope;
      // A write the bad rows break (a duplicate key) only means it is not committed: the verdict says why.
      // A changed data set is final: the write below would be refused the same way.
      speculative = replace(
        next.dataSet,
        validation.then((v) => v.rowsBad === 0),
      ).catch((error: unknown) => {
        if (error instanceof DataSetChangedError) throw error;
        return false;
      });
    }
  } else {
    phase(`Validating ${records.length} rows of ${report.file} …`);
    validation = Promise.resolve(validateRecords(definition, records, check, progress));
  }

  // Whatever the write does, the verdict is the validation's: every bad row reported.
  const verdict = await validation;
  seconds.validate = since();
  report.rowsValid = verdict.rowsValid;
  report.rowsBad = verdict.rowsBad;
  report.problems.push(...verdict.problems);
  try {
    if (await speculative) return finish();
  } catch (error) {
    return refusedAsChanged(error);
  }

  // An empty (or wholly bad) file never replaces what is served: that would silently lose the data.
  if (verdict.rowsValid === 0) {
    if (records.length === 0)
      report.problems.push({ line: null, column: null, reason: 'the file has no rows; nothing would be served' });
    return finish('no valid rows');
  }
  if (report.rowsBad > 0 && !options.skipInvalid)
    return finish(`${report.rowsBad} bad rows (all or nothing; --skip-invalid applies the good rows)`);

  const next = check.build(goodRows<R>(records, verdict.good), { ...source, rows: verdict.rowsValid });
  report.scope = next.scope;
  if (next.problems.length) {
    report.problems.push(...next.problems);
    return finish('the new data set would leave served data without its references');
  }
  if (options.dryRun) return finish('dry run');

  phase(`Replacing ${next.scope} in one transaction …`);
  try {
    await replace(next.dataSet, Promise.resolve(true));
  } catch (error) {
    return refusedAsChanged(error);
  }
  return finish();

  /** Another import committed after this one read the served set: nothing applied, a problem reported (exit 1). */
  function refusedAsChanged(error: unknown) {
    if (!(error instanceof DataSetChangedError)) throw error;
    report.problems.push({ line: null, column: null, reason: error.message });
    return finish('the served data set changed meanwhile (another import committed)');
  }
}

/**
 * The data set with every row of the file taken as good, for the write that runs alongside the validation;
 * null when the rows are too broken to build one (the validation then tells why, and nothing is written).
 */
function buildAll<R>(
  check: KindCheck<R>,
  records: FileRecord[],
  source: { kind: string; file: string; sha256: string },
) {
  try {
    return check.build(records as unknown as GoodRow<R>[], { ...source, rows: records.length });
  } catch {
    return null;
  }
}

/** Runs validate-worker.ts on the job; settles with its verdict, or rejects when the worker fails. */
export function validateInWorker(
  job: ValidationJob,
  onProgress: (progress: FileProgress) => void,
): Promise<Validation> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(new URL('./validate-worker.js', import.meta.url), job);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: ValidationMessage) => {
      if (message.type === 'progress') onProgress(message.progress);
      else if (message.type === 'done') settle(() => resolve(message.validation));
      else settle(() => reject(new Error(`validation failed: ${message.message}`)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the validation worker stopped (exit code ${code})`))));
  });
}
