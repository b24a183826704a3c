import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import type { FileReading } from '../../contract/ops-files';
import { detectFileLayout, fileFormatOf, readFileRecords } from '../importer/layouts';
import type { ChangeKind, StagingProgress, ValidationProblem } from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';
import { PARALLEL_FROM_ROWS, validateInWorker } from '../importer/importer';
import { KIND_DEFINITIONS, type ImportKindDefinition } from '../importer/kinds';
import { loadImportFile, parseImportFile, type FileProblem, type FileRecord } from '../importer/read-file';
import { goodRows, validateRecords, type Validation } from '../importer/validate';
import { computeDiff, type Difference } from './diff';

// A change prepared against the published data: the file read, every row validated by the importer's rules
// (the same messages as `npm run import`), the new data set built and its difference computed. Nothing is
// written here: staging keeps the result, approval publishes the built data set.

export interface PreparedChange {
  fileName: string;
  sha256: string;
  bytes: Uint8Array;
  countries: string[];
  rowsRead: number;
  rowsValid: number;
  rowsBad: number;
  problems: ValidationProblem[];
  /** The data set to publish; null when the change cannot be published (bad rows, broken references). */
  next: DataSet | null;
  diff: Difference | null;
  /** What it replaces ("the branches of BD"). */
  scope: string;
}

export interface ReadChange {
  bytes: Uint8Array;
  sha256: string;
  records: FileRecord[];
  fileProblems: FileProblem[];
}

/**
 * Reads a change's file into the kind's records. The one place the desk reads files. A CSV or JSON file in the
 * import format is read by the importer itself (its messages); an XLSX file, the public IFSC list of India or
 * a file read through the maker's column mapping by the layout readers (importer/layouts.ts). For those, the
 * bytes the desk keeps (to re-diff a stale change, for a rollback's snapshot) are the records in the import
 * format's CSV, so a later reading needs neither the mapping nor the XLSX reader; the SHA-256 stays the file's.
 */
export async function readChangeFile(
  kind: ChangeKind,
  source: string | Uint8Array,
  fileName: string,
  reading?: FileReading,
  maxUnpackedBytes?: number,
): Promise<ReadChange> {
  if (typeof source === 'string' && (await needsLayoutReader(kind, source, fileName, reading))) {
    const original = await readFile(source);
    const read = await readFileRecords(source, kind, reading, { fileName, maxUnpackedBytes });
    const columns = KIND_DEFINITIONS[kind].columns;
    const csv = stringify(
      read.records.map((r) => columns.map((column) => r.record[column] ?? '')),
      { header: true, columns: [...columns] },
    );
    return {
      bytes: Buffer.from(csv),
      sha256: createHash('sha256').update(original).digest('hex'),
      records: read.records,
      fileProblems: read.fileProblems,
    };
  }
  const loaded =
    typeof source === 'string'
      ? loadImportFile(source)
      : { bytes: source, sha256: createHash('sha256').update(source).digest('hex') };
  if (!('bytes' in loaded)) return { bytes: new Uint8Array(), sha256: '', records: [], fileProblems: [loaded] };
  const read = parseImportFile(fileName, loaded.bytes, KIND_DEFINITIONS[kind].columns);
  return { bytes: loaded.bytes, sha256: loaded.sha256, ...read };
}

/** XLSX, a reading given, or a CSV whose header is the public IFSC list: not the importer's own format. */
async function needsLayoutReader(kind: ChangeKind, path: string, fileName: string, reading?: FileReading) {
  const format = fileFormatOf(fileName);
  if (format === 'xlsx') return true;
  if (format === 'json') return false;
  if (reading && reading.layout !== 'import') return true;
  const detected = await detectFileLayout(path, kind, { fileName });
  return 'layout' in detected && detected.layout === 'ifsc-public';
}

/** The rule a problem breaks: its message without the row's own values, so rows that break it alike count together. */
export function ruleOf(problem: FileProblem, value: string | null): string {
  let message = problem.reason;
  if (value) message = message.split(value).join('…');
  message = message.replace(/\b(line|lines) \d+/g, '$1 N').replace(/\d{2,}/g, 'N');
  return `${problem.column ?? 'row'}: ${message}`;
}

function withValues(problems: FileProblem[], records: FileRecord[]): ValidationProblem[] {
  // Records are in line order: the row of a problem is found by binary search.
  const recordAt = (line: number) => {
    let lo = 0;
    let hi = records.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = records[mid].line;
      if (at === line) return records[mid];
      if (at < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  };
  return problems.map((p) => {
    const value = p.line !== null && p.column ? (recordAt(p.line)?.record[p.column] ?? null) : null;
    return { row: p.line, column: p.column, value, message: p.reason, rule: ruleOf(p, value) };
  });
}

export async function prepareChange(
  kind: ChangeKind,
  /** The file on disk, or its bytes (the copy the desk keeps). */
  path: string | Uint8Array,
  fileName: string,
  served: DataSet,
  options: {
    skipInvalid?: boolean;
    onProgress?: (progress: StagingProgress) => void;
    sha256?: string;
    reading?: FileReading;
    maxUnpackedBytes?: number;
  } = {},
): Promise<PreparedChange> {
  const progress = options.onProgress ?? (() => {});
  const definition = KIND_DEFINITIONS[kind] as ImportKindDefinition<unknown>;
  progress({ phase: 'reading', done: 0, total: 0 });
  const read = await readChangeFile(kind, path, fileName, options.reading, options.maxUnpackedBytes);
  const { records } = read;
  const prepared: PreparedChange = {
    fileName,
    sha256: read.sha256 || options.sha256 || '',
    bytes: read.bytes,
    countries: [...new Set(records.map((r) => r.record.country).filter(Boolean))].sort(),
    rowsRead: records.length,
    rowsValid: 0,
    rowsBad: 0,
    problems: withValues(read.fileProblems, records),
    next: null,
    diff: null,
    scope: '',
  };
  if (read.fileProblems.length) return prepared;

  const onValidating = (p: { done: number; total: number }) =>
    progress({ phase: 'validating', done: p.done, total: p.total });
  let verdict: Validation;
  if (records.length >= PARALLEL_FROM_ROWS) {
    // A large file is validated on the machine's other core: the event loop keeps answering lookups.
    verdict = await validateInWorker({ kind, file: fileName, bytes: read.bytes, served }, onValidating).catch(() =>
      validateRecords(definition, records, definition.prepare(served), onValidating),
    );
  } else verdict = validateRecords(definition, records, definition.prepare(served), onValidating);
  prepared.rowsValid = verdict.rowsValid;
  prepared.rowsBad = verdict.rowsBad;
  prepared.problems.push(...withValues(verdict.problems, records));
  if (verdict.rowsValid === 0) {
    if (records.length === 0)
      prepared.problems.push({
        row: null,
        column: null,
        value: null,
        message: 'the file has no rows; nothing would be served',
        rule: 'row: the file has no rows',
      });
    return prepared;
  }
  if (verdict.rowsBad > 0 && !options.skipInvalid) return prepared;

  const good = goodRows<unknown>(records, verdict.good);
  const built = definition
    .prepare(served)
    .build(good, { kind, file: fileName, sha256: prepared.sha256, rows: verdict.rowsValid });
  prepared.scope = built.scope;
  if (built.problems.length) {
    prepared.problems.push(...withValues(built.problems, records));
    return prepared;
  }
  if (kind === 'branches')
    prepared.countries = [...new Set(good.map((r) => (r.record as { country: string }).country))].sort();
  progress({ phase: 'diffing', done: 0, total: records.length });
  prepared.next = built.dataSet;
  prepared.diff = computeDiff(kind, served, built.dataSet, prepared.countries);
  progress({ phase: 'diffing', done: records.length, total: records.length });
  return prepared;
}
