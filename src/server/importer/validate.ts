import type { DataSet } from '../domain/data-set';
import type { GoodRow, ImportKind, ImportKindDefinition, KindCheck } from './kinds';
import type { FileProblem, FileProgress, FileRecord } from './read-file';

// Validation of every row of an import file against its row schema and the served data set: the same
// function runs in the importer's process (small files) and in a worker thread (validate-worker.ts) while
// the importer writes the new data set alongside.

export interface Validation {
  rowsValid: number;
  /** Rows with at least one problem. */
  rowsBad: number;
  /** Every problem of the rows, in file order. */
  problems: FileProblem[];
  /** Positions (in the file's records) of the good rows. */
  good: number[];
}

/**
 * Every row checked, in file order: its schema, then (`check`, prepared from the served data set) what needs
 * the served data and the rows before it.
 */
export function validateRecords<R>(
  definition: ImportKindDefinition<R>,
  records: FileRecord[],
  check: KindCheck<R>,
  progress: (progress: FileProgress) => void = () => {},
): Validation {
  const result: Validation = { rowsValid: 0, rowsBad: 0, problems: [], good: [] };
  const total = records.length;
  for (let index = 0; index < total; index++) {
    const { line, record } = records[index];
    const problems = [...records[index].problems];
    if ((index & 0x3fff) === 0) progress({ phase: 'validating', done: index, total });
    if (problems.length === 0) {
      const parsed = definition.schema.safeParse(record);
      if (parsed.success) problems.push(...check.checkRow(parsed.data, line));
      else
        for (const issue of parsed.error.issues)
          problems.push({ line, column: String(issue.path[0] ?? '') || null, reason: issue.message });
    }
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
