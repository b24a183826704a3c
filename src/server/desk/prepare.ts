import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import type { FileReading } from '../../contract/ops-files';
import type { ChangeKind, DiffEntry, StagingProgress, ValidationProblem } from '../../contract/ops-changes';
import type { ChangeQuality } from '../../contract/ops-quality';
import type { DataSet } from '../domain/data-set';
import {
  detectFileLayout,
  fileFormatOf,
  forEachFileRecord,
  readFileRecords,
  type FileSource,
} from '../importer/layouts';
import { KIND_DEFINITIONS, type GoodRow, type ImportKindDefinition } from '../importer/kinds';
import type { FileProblem, FileRecord } from '../importer/read-file';
import { goodRows, PARALLEL_FROM_ROWS, rowChecker, validateInWorker, validateRecords } from '../importer/validate';
import { DiffBuilder, type Difference } from './diff';
import { ScopedFile, scopeText, servedLookup, type StoredScope } from './scope';
import { StagedQuality } from './staged-quality';

// A change checked against the published data, as the desk stages it: the file read (any accepted format and
// layout), every row validated by the importer's rules (the same messages as `npm run import`, every fault of
// a row with the value that failed) and its difference against what is served — in one pass over the rows,
// which are never held: a million-row file is read, checked and diffed row by row, the entries handed on in
// batches to be written as they come (stageChange). Publishing builds the new data set (buildChange).

export interface StagedChange {
  fileName: string;
  sha256: string;
  /**
   * What the desk keeps to read the change again (a stale re-diff, the publish, a rollback's snapshot): the
   * file itself (`path`), or, for a file read through a layout (XLSX, the public IFSC list, a column mapping),
   * its records in the import format's CSV, so a later reading needs neither the mapping nor the XLSX reader.
   * The SHA-256 stays the file's.
   */
  kept: { path: string } | { bytes: Uint8Array };
  countries: string[];
  rowsRead: number;
  rowsValid: number;
  rowsBad: number;
  problems: ValidationProblem[];
  /**
   * The difference of the valid rows (with bad rows it cannot be published, but a checker reads what the valid
   * rows would do); null when there is nothing to compare (the file refused, broken references).
   */
  diff: Difference | null;
  /** The quality findings the change would add (staged-quality.ts); null with no difference. */
  quality: ChangeQuality | null;
  /** Entries handed to `onEntries` (none count when `diff` is null: they are to be dropped). */
  entries: number;
  /** What it replaces ("the branches of BD"). */
  scope: string;
}

export interface StageOptions {
  /** Publish the good rows and report the bad ones, instead of refusing the file (the import command). */
  skipInvalid?: boolean;
  /** Stage a file identical to what is served rather than fail it (the import command). */
  keepIdentical?: boolean;
  /** `keptOnTheChange`: a staging worker wrote it onto the change's row itself (a SQLite store). */
  onProgress?: (progress: StagingProgress, keptOnTheChange?: boolean) => void;
  reading?: FileReading;
  maxUnpackedBytes?: number;
  /** The difference's entries in batches, in order: added and changed in file order, then the removed. */
  onEntries?: (entries: DiffEntry[]) => void;
  /** What the change may add, change or remove (scope.ts); absent: what its file replaces. */
  scope?: StoredScope | null;
}

/** Entries handed on at once. */
const ENTRY_BATCH = 2000;

/** XLSX, a reading given, or a CSV whose header is the public IFSC list: not the importer's own format. */
async function needsLayoutReader(kind: ChangeKind, source: FileSource, fileName: string, reading?: FileReading) {
  if (typeof source !== 'string') return false; // the kept copy: the import format
  const format = fileFormatOf(fileName);
  if (format === 'xlsx') return true;
  if (format === 'json') return false;
  if (reading && reading.layout !== 'import') return true;
  const detected = await detectFileLayout(source, kind, { fileName });
  return 'layout' in detected && detected.layout === 'ifsc-public';
}

async function sha256Of(source: FileSource): Promise<string> {
  const hash = createHash('sha256');
  if (typeof source !== 'string') return hash.update(source).digest('hex');
  for await (const chunk of createReadStream(source)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The rule a problem breaks: its message without the row's own values, so rows that break it alike count together. */
export function ruleOf(problem: FileProblem, value: string | null): string {
  let message = problem.reason;
  if (value) message = message.split(value).join('…');
  message = message.replace(/\b(line|lines) \d+/g, '$1 N').replace(/\d{2,}/g, 'N');
  return `${problem.column ?? 'row'}: ${message}`;
}

/** A problem in the desk's words, with the value of its cell in `record` (none: a problem of the file). */
function withValue(p: FileProblem, record: Record<string, string> | undefined): ValidationProblem {
  const value = record && p.line !== null && p.column ? (record[p.column] ?? null) : null;
  return { row: p.line, column: p.column, value, message: p.reason, rule: ruleOf(p, value) };
}

/**
 * Reads, validates and diffs a change's file in one pass (see above). The served data set is only read.
 * `source`: the file on disk, or the bytes the desk keeps of it.
 */
export async function stageChange(
  kind: ChangeKind,
  source: FileSource,
  fileName: string,
  served: DataSet,
  options: StageOptions = {},
): Promise<StagedChange> {
  const progress = options.onProgress ?? (() => {});
  const definition = KIND_DEFINITIONS[kind] as ImportKindDefinition<unknown>;
  progress({ phase: 'reading', done: 0, total: 0 });
  const asCsv = await needsLayoutReader(kind, source, fileName, options.reading);
  const scoped = new ScopedFile(kind, options.scope ?? null, served);
  /** The columns the kept copy holds: those the file carries (scope.ts keeps the others' served values). */
  let keptColumns: readonly string[] = definition.columns;
  const keptCsv: string[] = [];

  const check = definition.prepare(served);
  const checkRow = rowChecker(definition, check);
  const scope = options.scope ?? null;
  const diff = new DiffBuilder(kind, served, scope && 'country' in scope ? scope.country : undefined);
  const quality = new StagedQuality(kind, served);
  const problems: ValidationProblem[] = [];
  const allCountries = new Set<string>();
  const goodCountries = new Set<string>();
  /** Partners: every good row, for the checks of the whole file (a few hundred rows). */
  const wholeFile: GoodRow<unknown>[] | null = definition.checksWholeFile ? [] : null;
  const recordAt = new Map<number, Record<string, string>>();
  let batch: DiffEntry[] = [];
  let entries = 0;
  const emit = (entry: DiffEntry | null) => {
    if (!entry || !options.onEntries) return;
    batch.push(entry);
    entries++;
    if (batch.length >= ENTRY_BATCH) flush();
  };
  const flush = () => {
    if (batch.length) options.onEntries?.(batch);
    batch = [];
  };
  let rowsRead = 0;
  let rowsBad = 0;
  let expected = 0;

  const outcome = await forEachFileRecord(
    source,
    kind,
    asCsv ? options.reading : undefined,
    {
      fileName,
      maxUnpackedBytes: options.maxUnpackedBytes,
      onRowsExpected: (rows) => (expected = rows),
      onColumns: (carried) => {
        scoped.carries(carried);
        keptColumns = definition.columns.filter((column) => carried.includes(column));
        if (asCsv) keptCsv.push(stringify([[...keptColumns]]));
      },
    },
    (fileRecord: FileRecord) => {
      if ((rowsRead & 0x3fff) === 0)
        progress({ phase: 'validating', done: rowsRead, total: Math.max(expected, rowsRead) });
      rowsRead++;
      const { record, line } = fileRecord;
      if (record.country) allCountries.add(record.country);
      if (asCsv) keptCsv.push(stringify([keptColumns.map((column) => record[column] ?? '')]));
      const rowProblems = [...scoped.take(fileRecord, (key, n) => diff.servedAt(key, n)), ...checkRow(fileRecord)];
      if (rowProblems.length) {
        rowsBad++;
        for (const p of rowProblems) problems.push(withValue(p, record));
        return;
      }
      goodCountries.add(record.country);
      if (wholeFile) {
        wholeFile.push({ line, record });
        recordAt.set(line, record);
      }
      // Every good row, after a bad one too: the difference of the valid rows is shown (approval stays blocked).
      const row = check.row(record);
      emit(diff.add(row));
      quality.row(row, diff.occurrence);
    },
  );
  progress({ phase: 'validating', done: rowsRead, total: rowsRead });

  const staged: StagedChange = {
    fileName,
    sha256: await sha256Of(source),
    kept: asCsv
      ? { bytes: Buffer.from(keptCsv.join('')) }
      : typeof source === 'string'
        ? { path: source }
        : { bytes: source },
    countries: [...allCountries].sort(),
    rowsRead,
    rowsValid: rowsRead - rowsBad,
    rowsBad,
    problems,
    diff: null,
    quality: null,
    entries: 0,
    scope: '',
  };
  if (outcome.fileProblems.length) {
    // The file itself is refused: its rows' problems are not reported (the rows may be incomplete).
    staged.problems = outcome.fileProblems.map((p) => withValue(p, undefined));
    staged.rowsValid = staged.rowsBad = 0;
    return staged;
  }
  if (staged.rowsValid === 0 && !(rowsRead === 0 && scoped.removesAny)) {
    if (rowsRead === 0)
      problems.push({
        row: null,
        column: null,
        value: null,
        message: 'the file has no rows; nothing would be served',
        rule: 'row: the file has no rows',
      });
    return staged;
  }
  if (kind === 'branches') staged.countries = scoped.countries(goodCountries);
  // The whole file's checks need every row good (a bad row's references are not there).
  if (wholeFile && (rowsBad === 0 || options.skipInvalid)) {
    const rows = scoped.effective(wholeFile, staged.countries);
    const built = check.build(rows, { kind, file: fileName, sha256: staged.sha256, rows: rows.length });
    if (built.problems.length) {
      problems.push(...built.problems.map((p) => withValue(p, p.line === null ? undefined : recordAt.get(p.line))));
      return staged;
    }
  }
  staged.scope = scopeText(kind, options.scope ?? null, staged.countries);
  progress({ phase: 'diffing', done: rowsRead, total: rowsRead });
  staged.diff = diff.finish(staged.countries, emit, scoped.area());
  flush();
  staged.quality = quality.finish(staged.diff);
  staged.entries = entries;
  return staged;
}

/**
 * The data set a staged change publishes: its kept file read again and validated against what is served now
 * (a large file on the machine's other core: the event loop keeps answering lookups), the good rows swapped
 * in. Null when it no longer validates, or would leave served data without its references.
 */
export async function buildChange(
  kind: ChangeKind,
  bytes: Uint8Array,
  fileName: string,
  served: DataSet,
  {
    scope = null,
    uploadedSha256,
    skipInvalid = false,
  }: {
    scope?: StoredScope | null;
    /** The SHA-256 of the file as uploaded (tellers are told it; `bytes` may be its import-format copy). */
    uploadedSha256?: string;
    /** Leave the bad rows out (the import command's --skip-invalid) rather than refuse the file. */
    skipInvalid?: boolean;
  } = {},
): Promise<DataSet | null> {
  const definition = KIND_DEFINITIONS[kind] as ImportKindDefinition<unknown>;
  const scoped = new ScopedFile(kind, scope, served);
  const read = await readFileRecords(bytes, kind, undefined, { fileName, onColumns: (c) => scoped.carries(c) });
  if (read.fileProblems.length || (read.records.length === 0 && !scoped.removesAny)) return null;
  if (scoped.active) {
    const lookup = servedLookup(kind, served);
    if (read.records.some((record) => scoped.take(record, lookup).length > 0)) return null;
  }
  const file = fileFormatOf(fileName) === 'json' ? 'change.json' : 'change.csv';
  // A scoped file is validated as completed here (the worker would read the file as kept).
  const verdict =
    read.records.length >= PARALLEL_FROM_ROWS && !scoped.active
      ? await validateInWorker({ kind, file, bytes, served }, () => {}).catch(() =>
          validateRecords(definition, read.records, definition.prepare(served)),
        )
      : validateRecords(definition, read.records, definition.prepare(served));
  if (verdict.rowsBad > 0 && !skipInvalid) return null;
  const sha256 = uploadedSha256 || (await sha256Of(bytes));
  const good = goodRows<unknown>(read.records, verdict.good);
  const countries = scoped.countries(good.map((row) => (row.record as Record<string, string>).country));
  const rows = scoped.effective(good, countries);
  const built = definition.prepare(served).build(rows, { kind, file: fileName, sha256, rows: rows.length });
  return built.problems.length ? null : built.dataSet;
}
