import type { LookupStore } from '../store/store';
import { KIND_DEFINITIONS, type GoodRow, type ImportKind, type ImportKindDefinition } from './kinds';
import { readImportFile, type FileProblem, type FileProgress } from './read-file';

// An import: read the file, validate every row, and — when nothing is wrong, or with --skip-invalid when
// the bad rows are left out — build the whole new data set and hand it to the store's replaceDataSet, one
// transaction. Works on any LookupStore, so every engine gets imports for free.

export interface ImportOptions {
  /** Validate and report; change nothing. */
  dryRun?: boolean;
  /** Apply the good rows and report the bad ones, instead of applying nothing. */
  skipInvalid?: boolean;
  onProgress?: (progress: FileProgress) => void;
  /** Phase announcements ("validating", "replacing") for the command's log. */
  onPhase?: (message: string) => void;
}

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
  seconds: { read: number; validate: number; apply: number; total: number };
  /** Rows read per second over the whole import, reading to commit. */
  rowsPerSecond: number;
}

const byLine = (a: FileProblem, b: FileProblem) => (a.line ?? 0) - (b.line ?? 0);

export async function importFile(store: LookupStore, kind: ImportKind, path: string, options: ImportOptions = {}): Promise<ImportReport> {
  return runImport(store, KIND_DEFINITIONS[kind] as ImportKindDefinition<unknown>, path, options);
}

async function runImport<R>(store: LookupStore, definition: ImportKindDefinition<R>, path: string, options: ImportOptions): Promise<ImportReport> {
  const phase = options.onPhase ?? (() => {});
  const started = performance.now();
  const seconds = { read: 0, validate: 0, apply: 0, total: 0 };
  const lap = (since: number) => (performance.now() - since) / 1000;

  const read = await readImportFile(path, definition.columns, options.onProgress);
  seconds.read = lap(started);
  const report: ImportReport = {
    kind: definition.kind,
    file: read.source.file,
    sha256: read.source.sha256,
    rowsRead: read.records.length,
    rowsValid: 0,
    rowsBad: 0,
    problems: [...read.fileProblems],
    applied: false,
    scope: '',
    seconds,
    rowsPerSecond: 0,
  };
  const finish = (notApplied?: string) => {
    seconds.total = lap(started);
    report.rowsPerSecond = seconds.total > 0 ? Math.round(report.rowsRead / seconds.total) : 0;
    report.problems.sort(byLine);
    if (notApplied) report.notApplied = notApplied;
    return report;
  };
  if (read.fileProblems.length) return finish('the file itself has problems');

  phase(`Validating ${read.records.length} rows of ${report.file} …`);
  const validateStarted = performance.now();
  const served = await store.readDataSet();
  const check = definition.prepare(served);
  const good: GoodRow<R>[] = [];
  const progress = options.onProgress ?? (() => {});
  const total = read.records.length;
  for (let index = 0; index < total; index++) {
    const { line, cells, problems } = read.records[index];
    if ((index & 0x3fff) === 0) progress({ phase: 'validating', done: index, total });
    if (problems.length === 0) {
      const parsed = definition.schema.safeParse(cells);
      if (parsed.success) problems.push(...check.checkRow(parsed.data, line));
      else for (const issue of parsed.error.issues) problems.push({ line, column: String(issue.path[0] ?? '') || null, reason: issue.message });
      if (problems.length === 0) good.push({ line, record: parsed.data as R });
    }
    if (problems.length) {
      report.rowsBad++;
      report.problems.push(...problems);
    }
  }
  progress({ phase: 'validating', done: total, total });
  report.rowsValid = good.length;
  seconds.validate = lap(validateStarted);

  // An empty (or wholly bad) file never replaces what is served: that would silently lose the data.
  if (good.length === 0) {
    if (read.records.length === 0) report.problems.push({ line: null, column: null, reason: 'the file has no rows; nothing would be served' });
    return finish('no valid rows');
  }
  if (report.rowsBad > 0 && !options.skipInvalid) return finish(`${report.rowsBad} bad rows (all or nothing; --skip-invalid applies the good rows)`);

  const source = { kind: definition.kind, file: read.source.file, sha256: read.source.sha256, rows: good.length };
  const next = check.build(good, source);
  report.scope = next.scope;
  if (next.problems.length) {
    report.problems.push(...next.problems);
    return finish('the new data set would leave served data without its references');
  }
  if (options.dryRun) return finish('dry run');

  phase(`Replacing ${next.scope} in one transaction …`);
  const applyStarted = performance.now();
  await store.replaceDataSet(next.dataSet);
  seconds.apply = lap(applyStarted);
  report.applied = true;
  return finish();
}
