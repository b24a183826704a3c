import type { DataSet } from '../domain/data-set';
import type { GoodRow, ImportKind, ImportKindDefinition, KindCheck } from './kinds';
import type { FileProblem, FileProgress, FileRecord } from './read-file';
import { runWorker } from '../worker-thread';

// Validation of every row of an import file against its row schema and the served data set: the same
// function runs in the desk's process (small files) and in a worker thread (validate-worker.ts) when a publish
// builds a large change's data set.

export interface Validation {
  rowsValid: number;
  /** Rows with at least one problem. */
  rowsBad: number;
  /** Every problem of the rows, in file order. */
  problems: FileProblem[];
  /** Positions (in the file's records) of the good rows. */
  good: number[];
}

/** A stable name of the rule a schema issue breaks: `bank_name.required`, `routing_number.format`, … */
function ruleOf(column: string | null, issue: { code: string; message: string }): string {
  const what = issue.message.startsWith('is required')
    ? 'required'
    : issue.code === 'invalid_format'
      ? 'format'
      : issue.code === 'too_big'
        ? 'length'
        : issue.code === 'custom'
          ? 'check'
          : issue.code;
  return `${column ?? 'row'}.${what}`;
}

/**
 * The check of one row, rows given in file order: its schema, then (`check`, prepared from the served data set)
 * what needs the served data and the rows before it. Every fault of the row, not only the first: the schema's
 * issues, then the checks against the served data on the cells the schema did not fault (a row the schema
 * faults is still a row of the file: its codes count for duplicates). A row whose shape is broken (a CSV row
 * with the wrong number of fields, a JSON element that is no object) has no cells to check.
 */
export function rowChecker<R>(
  definition: ImportKindDefinition<R>,
  check: KindCheck<R>,
): (fileRecord: FileRecord) => FileProblem[] {
  return ({ line, record, problems: asRead }) => {
    const problems = [...asRead];
    const broken = problems.some((p) => p.column === null && p.rule !== 'xlsx.formula');
    const parsed = broken ? null : definition.schema.safeParse(record);
    if (!parsed) {
      // reported already
    } else if (parsed.success) problems.push(...check.checkRow(parsed.data, line));
    else {
      const faulted = new Set<string>();
      for (const issue of parsed.error.issues) {
        const column = String(issue.path[0] ?? '') || null;
        if (column && faulted.has(column)) continue; // one fault per cell: the first its checks find
        if (column) faulted.add(column);
        problems.push({
          line,
          column,
          value: column === null ? null : (record[column] ?? null),
          reason: issue.message,
          rule: ruleOf(column, issue),
        });
      }
      if (!faulted.has('country'))
        for (const problem of check.checkRow(record as R, line))
          if (!problem.column || !faulted.has(problem.column)) problems.push(problem);
    }
    return problems;
  };
}

/** Every row checked (rowChecker), in file order. */
export function validateRecords<R>(
  definition: ImportKindDefinition<R>,
  records: FileRecord[],
  check: KindCheck<R>,
  progress: (progress: FileProgress) => void = () => {},
): Validation {
  const result: Validation = { rowsValid: 0, rowsBad: 0, problems: [], good: [] };
  const checkRow = rowChecker(definition, check);
  const total = records.length;
  for (let index = 0; index < total; index++) {
    if ((index & 0x3fff) === 0) progress({ phase: 'validating', done: index, total });
    const problems = checkRow(records[index]);
    if (problems.length) {
      result.rowsBad++;
      result.problems.push(...problems);
    } else result.good.push(index);
  }
  progress({ phase: 'validating', done: total, total });
  result.rowsValid = result.good.length;
  return result;
}

/** The good rows as the kind's records (the row schemas check text, they do not change it). */
export const goodRows = <R>(records: FileRecord[], good: number[]): GoodRow<R>[] =>
  good.map((index) => records[index] as unknown as GoodRow<R>);

/** What the worker is given: the file's bytes (the ones the importer writes from) and the served data set. */
export interface ValidationJob {
  kind: ImportKind;
  file: string;
  bytes: Uint8Array;
  served: DataSet;
}

export type ValidationMessage =
  | { type: 'progress'; progress: FileProgress }
  | { type: 'done'; validation: Validation }
  | { type: 'failed'; message: string };

/** Files with at least this many rows are validated in a worker (the event loop keeps answering lookups). */
export const PARALLEL_FROM_ROWS = 20_000;

/** Runs validate-worker.ts on the job; settles with its verdict, or rejects when the worker fails. */
export function validateInWorker(
  job: ValidationJob,
  onProgress: (progress: FileProgress) => void,
): Promise<Validation> {
  return runWorker<Validation, ValidationMessage>(
    new URL('./validate-worker.js', import.meta.url),
    job,
    'validation',
    (message, outcome) => {
      if (message.type === 'progress') onProgress(message.progress);
      else if (message.type === 'done') outcome.resolve(message.validation);
      else outcome.reject(new Error(`validation failed: ${message.message}`));
    },
  );
}
