import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { csvSheet } from './sheet';
import { decodeImportText, invalidCells, invalidUtf8Problem, lineOfInvalid } from './utf8';
import type { FileProblem } from './file-problem';

// Reads an import file, CSV or JSON, into records of text cells, each with the physical line it starts on
// (CSV: the header is line 1). Problems with the file itself (unreadable, bad quoting, missing columns) are
// reported as problems, not thrown: the importer turns them into the report like any bad row.

/** A row of the file: its text cells by column (`record`, as a good row hands it on), and its own problems. */
export interface FileRecord {
  line: number;
  record: Record<string, string>;
  problems: FileProblem[];
}
export type { FileProblem };

/** Rows done of the rows to do, in one phase of an import (validating, and writing the new data set). */
export interface FileProgress {
  phase: 'validating' | 'writing';
  done: number;
  total: number;
}

export interface ReadResult {
  records: FileRecord[];
  /** Problems of the whole file; when any is present the records may be incomplete. */
  fileProblems: FileProblem[];
}

const fileFormatOf = (path: string): 'csv' | 'json' => (extname(path).toLowerCase() === '.json' ? 'json' : 'csv');

/**
 * Header problems: every column of the format must be there (but the `optional` ones), and nothing else.
 */
export function headerProblems(
  header: readonly string[],
  columns: readonly string[],
  optional: readonly string[] = [],
): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const column of columns) {
    if (!header.includes(column) && !optional.includes(column))
      problems.push({
        line: 1,
        column,
        value: null,
        reason: `missing column (expected: ${columns.filter((c) => !optional.includes(c)).join(',')})`,
        rule: 'header.missing',
      });
  }
  const seen = new Set<string>();
  for (const column of header) {
    if (!columns.includes(column))
      problems.push({ line: 1, column, value: column, reason: 'unknown column', rule: 'header.unknown' });
    else if (seen.has(column))
      problems.push({ line: 1, column, value: column, reason: 'column given twice', rule: 'header.twice' });
    seen.add(column);
  }
  return problems;
}

export interface ImportFile {
  file: string;
  bytes: Uint8Array;
  sha256: string;
}

/** The file's bytes, read (and hashed) once: the importer parses them and hands them to its validation worker. */
export function loadImportFile(path: string): ImportFile | FileProblem {
  try {
    const bytes = readFileSync(path);
    return { file: basename(path), bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  } catch (error) {
    return { line: null, column: null, reason: `cannot read the file: ${(error as Error).message}` };
  }
}

export function parseImportFile(file: string, bytes: Uint8Array, columns: readonly string[]): ReadResult {
  const { text, invalid } = decodeImportText(bytes);
  const read = fileFormatOf(file) === 'json' ? readJson(text, columns) : readCsv(text, columns);
  if (invalid) {
    // Not UTF-8: the file is refused, naming each row and column that holds a bad byte sequence.
    const problems = read.records.flatMap((r) => invalidCells(r.line, r.record));
    read.fileProblems.push(...(problems.length ? problems : [invalidUtf8Problem(lineOfInvalid(text), null, '')]));
  }
  return read;
}

/** CSV in the import format: the header must be the kind's columns, each row's cells by column. */
function readCsv(text: string, columns: readonly string[]): ReadResult {
  const { rows, fileProblems } = csvSheet(text);
  const header = rows[0]?.cells ?? [];
  if (rows.length === 0 || (header.length === 1 && header[0] === '')) {
    return {
      records: [],
      fileProblems: [{ line: 1, column: null, reason: 'the file is empty: no header row', rule: 'file.empty' }],
    };
  }
  fileProblems.push(...headerProblems(header, columns));
  const records: FileRecord[] = [];
  const width = header.length;
  for (let i = 1; i < rows.length; i++) {
    const { line, cells: fields, problems } = rows[i];
    const cells: Record<string, string> = {};
    for (let c = 0; c < width; c++) cells[header[c]] = fields[c] ?? '';
    for (const column of columns) cells[column] ??= '';
    records.push({ line, record: cells, problems });
  }
  return { records, fileProblems };
}

/** Lines where the elements of a top-level JSON array start (the text is known to parse). */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
    if (expectElement && depth === 1 && ch !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

function readJson(text: string, columns: readonly string[]): ReadResult {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : null;
    return {
      records: [],
      fileProblems: [{ line, column: null, reason: `not readable as JSON: ${(error as Error).message}` }],
    };
  }
  if (!Array.isArray(document)) {
    return {
      records: [],
      fileProblems: [{ line: 1, column: null, reason: 'must be a JSON array of objects, one per row' }],
    };
  }
  const lines = elementLines(text);
  const records = document.map((element, index): FileRecord => {
    const line = lines[index] ?? null!;
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      return {
        line,
        record: {},
        problems: [{ line, column: null, reason: 'must be an object with the fields of the format' }],
      };
    }
    const cells: Record<string, string> = {};
    const problems: FileProblem[] = [];
    for (const [key, value] of Object.entries(element as Record<string, unknown>)) {
      if (!columns.includes(key)) problems.push({ line, column: key, reason: 'unknown field' });
      else if (value === null || value === undefined) cells[key] = '';
      else if (typeof value === 'string') cells[key] = value.trim();
      else if (typeof value === 'number' && Number.isFinite(value)) cells[key] = String(value);
      else problems.push({ line, column: key, reason: 'must be text (or a number)' });
    }
    // A JSON row may leave out empty fields; required ones are then reported by the row schema.
    for (const column of columns) cells[column] ??= '';
    return { line, record: cells, problems };
  });
  return { records, fileProblems: [] };
}
