import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { fromCsvCell } from '../../contract/csv-cell';
import Papa from 'papaparse';

// Reads an import file, CSV or JSON, into records of text cells, each with the physical line it starts on
// (CSV: the header is line 1). Problems with the file itself (unreadable, bad quoting, missing columns) are
// reported as problems, not thrown: the importer turns them into the report like any bad row.

/** A row of the file: its text cells by column (`record`, as a good row hands it on), and its own problems. */
export interface FileRecord {
  line: number;
  record: Record<string, string>;
  problems: FileProblem[];
}
export interface FileProblem {
  line: number | null;
  column: string | null;
  reason: string;
}

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

/** Header problems: every column of the format must be there, and nothing else. */
function headerProblems(header: string[], columns: readonly string[]): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const column of columns) {
    if (!header.includes(column))
      problems.push({ line: 1, column, reason: `missing column (expected: ${columns.join(',')})` });
  }
  const seen = new Set<string>();
  for (const column of header) {
    if (!columns.includes(column)) problems.push({ line: 1, column, reason: 'unknown column' });
    else if (seen.has(column)) problems.push({ line: 1, column, reason: 'column given twice' });
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
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return fileFormatOf(file) === 'json' ? readJson(text, columns) : readCsv(text, columns);
}

/**
 * CSV through papaparse rather than the seed's csv-parse: on this machine csv-parse reads a 300,000-row branch
 * file in about 7 s, papaparse in about 1 s. Empty lines are kept by the parser and skipped here so that
 * every record knows its physical line.
 */
function readCsv(text: string, columns: readonly string[]): ReadResult {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  const fileProblems: FileProblem[] = [];
  const rows = parsed.data;
  const header = (rows[0] ?? []).map((name) => name.trim());
  if (rows.length === 0 || (header.length === 1 && header[0] === '')) {
    return { records: [], fileProblems: [{ line: 1, column: null, reason: 'the file is empty: no header row' }] };
  }
  fileProblems.push(...headerProblems(header, columns));
  // Physical line of each parsed row. Only a quoted field can hold a line break: without one (the usual
  // file) row i starts on line i + 1, and the fields need not be searched.
  const lineOfRow: number[] = new Array(rows.length);
  const breaksInFields = rows.length - 1 < countLineBreaks(text);
  let line = 1;
  for (let i = 0; i < rows.length; i++) {
    lineOfRow[i] = line;
    line += 1;
    if (breaksInFields) for (const field of rows[i]) if (field.includes('\n')) line += field.split('\n').length - 1;
  }
  for (const error of parsed.errors) {
    // Quoting errors make the rest of the file unreliable: the whole file is refused.
    if (error.type === 'Quotes')
      fileProblems.push({
        line: lineOfRow[error.row ?? 0] ?? null,
        column: null,
        reason: `not readable as CSV: ${error.message}`,
      });
  }
  const records: FileRecord[] = [];
  const width = header.length;
  for (let i = 1; i < rows.length; i++) {
    const fields = rows[i];
    if (fields.length === 1 && fields[0].trim() === '') continue; // an empty line
    const recordLine = lineOfRow[i];
    const problems: FileProblem[] = [];
    if (fields.length !== width) {
      problems.push({ line: recordLine, column: null, reason: `has ${fields.length} fields; the header has ${width}` });
    }
    const cells: Record<string, string> = {};
    // Cells the export escaped against formula injection (contract/csv-cell.ts) read back as the value.
    for (let c = 0; c < width; c++) cells[header[c]] = fromCsvCell((fields[c] ?? '').trim());
    for (const column of columns) cells[column] ??= '';
    records.push({ line: recordLine, record: cells, problems });
  }
  return { records, fileProblems };
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
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
