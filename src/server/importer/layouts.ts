import { extname } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { ZodObject } from 'zod';
import {
  IFSC_PUBLIC_COLUMNS,
  type ColumnMapping,
  type DetectedLayout,
  type FileReading,
  type OpsFileFormat,
  type OpsFileKind,
  type OpsFileLayout,
  type OpsFileProblem,
  type RuleCount,
} from '../../contract/ops-files';
import { KIND_DEFINITIONS, type ImportKind } from './kinds';
import { headerProblems, parseImportFile, type FileProblem, type FileRecord, type ReadResult } from './read-file';
import { forEachCsvRow, type SheetRow } from './sheet';
import { decodeImportText, INVALID, invalidUtf8Problem } from './utf8';
import { readXlsxRows, XlsxRefused, type XlsxOptions } from './xlsx';

// The operations desk's readers: a file of any accepted format (CSV, JSON, XLSX) and layout (the
// import format, the public IFSC list of India, or any header through a column mapping the maker chooses) read
// into the importer's records (FileRecord: text cells by import column), which the importer's validation then
// checks as it checks any import file. Entry points:
// - detectFileLayout(path, kind): what the first rows say (layout, header, suggested mapping, sample), for the
//   mapping screen;
// - readFileRecords(path, kind, reading?): every record, plus the problems of the file (header, mapping,
//   an XLSX refused), the layout it was read with.

export const fileFormatOf = (name: string): OpsFileFormat => {
  const extension = extname(name).toLowerCase();
  return extension === '.xlsx' ? 'xlsx' : extension === '.json' ? 'json' : 'csv';
};

/** A field's name or a heading, compared without case, spaces or punctuation. */
const looseName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Headings other files give these fields (besides the field's own name). */
const SYNONYMS: Record<ImportKind, Record<string, string>> = {
  branches: {
    ifsc: 'routing_number',
    ifsccode: 'routing_number',
    routingno: 'routing_number',
    routing: 'routing_number',
    bank: 'bank_name',
    bankname: 'bank_name',
    bankcode: 'bank_code',
    branch: 'branch_name',
    address: 'address_line1',
    address1: 'address_line1',
    address2: 'address_line2',
    centre: 'address_line2',
    division: 'state',
    region: 'state',
    province: 'state',
    countrycode: 'country',
    phone: 'contact',
    telephone: 'contact',
    swiftcode: 'swift',
    bic: 'swift',
    micrcode: 'micr',
  },
  partners: { code: 'head_office_code', name: 'head_office_name', network: 'network_name', modes: 'delivery_modes' },
  agents: {
    code: 'agent_code',
    name: 'agent_name',
    phone: 'phone_number',
    address: 'address_line1',
    headoffice: 'head_office_code',
  },
};

export interface KindField {
  name: string;
  required: boolean;
}

/** The kind's fields: its import columns; required when its schema refuses an empty cell. */
export function kindFields(kind: ImportKind): KindField[] {
  const definition = KIND_DEFINITIONS[kind];
  const shape = (definition.schema as unknown as ZodObject).shape;
  return definition.columns.map((name) => ({
    name,
    required: shape[name] ? !shape[name].safeParse('').success : false,
  }));
}

const isIfscPublic = (header: readonly string[]) =>
  header.length === IFSC_PUBLIC_COLUMNS.length &&
  IFSC_PUBLIC_COLUMNS.every((column) => header.some((h) => h.toUpperCase() === column));

/** The layout the header says: the import format when it names the kind's columns, the IFSC list, else mapped. */
export function layoutOfHeader(kind: ImportKind, header: readonly string[]): OpsFileLayout {
  if (kind === 'branches' && isIfscPublic(header)) return 'ifsc-public';
  const definition = KIND_DEFINITIONS[kind];
  return headerProblems(header, definition.columns, definition.optionalColumns ?? []).length === 0
    ? 'import'
    : 'mapped';
}

/** Heading → field where a heading names a field (its own name or a known synonym), each field once. */
export function suggestMapping(kind: ImportKind, header: readonly string[]): ColumnMapping {
  const fields = new Map(KIND_DEFINITIONS[kind].columns.map((c) => [looseName(c), c]));
  const mapping: ColumnMapping = {};
  const taken = new Set<string>();
  for (const heading of header) {
    const loose = looseName(heading);
    const field = fields.get(loose) ?? SYNONYMS[kind][loose];
    if (!field || taken.has(field) || !KIND_DEFINITIONS[kind].columns.includes(field)) continue;
    taken.add(field);
    mapping[heading] = field;
  }
  return mapping;
}

/** What a file's first rows say: for the mapping screen (header, sample) and to read it without asking. */
export function detectLayout(
  kind: ImportKind,
  format: OpsFileFormat,
  header: readonly string[],
  sample: readonly (readonly string[])[] = [],
): DetectedLayout {
  const layout = layoutOfHeader(kind, header);
  const suggestedMapping = suggestMapping(kind, header);
  const mapped = new Set(Object.values(suggestedMapping));
  if (layout === 'ifsc-public') ['country', 'bank_code'].forEach((f) => mapped.add(f)); // derived
  const fields = kindFields(kind);
  return {
    kind,
    format,
    layout,
    header: [...header],
    fields,
    suggestedMapping,
    sample: sample.slice(0, 5).map((row) => [...row]),
    missingRequired: fields.filter((f) => f.required && !mapped.has(f.name)).map((f) => f.name),
  };
}

/** Turns the rows after the header into records of the kind, for one layout. */
export interface LayoutReader {
  /** Problems of the header or the mapping: the file is refused when there is any. */
  problems: FileProblem[];
  /** The kind's columns the file gives (the others are empty in every record): a scoped change keeps them. */
  carried: readonly string[];
  toRecord(row: SheetRow): FileRecord;
}

const IFSC_BOOLEANS = { neft: 'NEFT', rtgs: 'RTGS', imps: 'IMPS', upi: 'UPI' } as const;

function ifscPublicReader(header: readonly string[], columns: readonly string[]): LayoutReader {
  const at = (name: string) => header.findIndex((h) => h.toUpperCase() === name);
  // Each heading of the list by its name, as the contract spells them (a heading the file lacks: -1, an empty cell).
  const [bank, ifsc, branch, centre, district, state, address, contact, city, micr, swift] = (
    ['BANK', 'IFSC', 'BRANCH', 'CENTRE', 'DISTRICT', 'STATE', 'ADDRESS', 'CONTACT', 'CITY', 'MICR', 'SWIFT'] as const
  ).map((name: (typeof IFSC_PUBLIC_COLUMNS)[number]) => at(name));
  const flags = Object.entries(IFSC_BOOLEANS).map(([field, heading]) => [field, at(heading)] as const);
  const extra = columns.includes('micr');
  return {
    problems: [],
    carried: columns,
    toRecord({ line, cells, problems }) {
      const cell = (index: number) => cells[index] ?? '';
      const code = cell(ifsc).toUpperCase();
      const townOrCentre = cell(city) || cell(centre);
      const record: Record<string, string> = {
        country: 'IN',
        // The IFSC's first four characters are the bank's code (RBI).
        bank_code: code.slice(0, 4),
        bank_name: cell(bank),
        routing_number: code,
        branch_name: cell(branch),
        address_line1: cell(address),
        // As the shipped India extract gives it: "CITY, STATE".
        address_line2: [townOrCentre, cell(state)].filter(Boolean).join(', '),
        city: townOrCentre,
        district: cell(district),
        state: cell(state),
      };
      if (extra) {
        record.micr = cell(micr) === 'NA' ? '' : cell(micr);
        record.swift = cell(swift) === 'NA' ? '' : cell(swift);
        record.contact = cell(contact);
        for (const [field, index] of flags) record[field] = cell(index);
      }
      return { line, record, problems };
    },
  };
}

function mappedReader(
  kind: ImportKind,
  header: readonly string[],
  mapping: ColumnMapping,
  country: string | undefined,
): LayoutReader {
  const columns = KIND_DEFINITIONS[kind].columns;
  const problems: FileProblem[] = [];
  const sources: [string, number][] = [];
  const given = new Map<string, string>();
  for (const [heading, field] of Object.entries(mapping)) {
    const index = header.indexOf(heading);
    if (index === -1) {
      problems.push({
        line: 1,
        column: heading,
        value: heading,
        reason: 'no such column in the file',
        rule: 'mapping.heading',
      });
      continue;
    }
    if (!columns.includes(field)) {
      problems.push({
        line: 1,
        column: heading,
        value: field,
        reason: `"${field}" is not a field of ${kind} (fields: ${columns.join(', ')})`,
        rule: 'mapping.field',
      });
      continue;
    }
    const other = given.get(field);
    if (other !== undefined) {
      problems.push({
        line: 1,
        column: heading,
        value: field,
        reason: `field ${field} is already given by column "${other}"`,
        rule: 'mapping.twice',
      });
      continue;
    }
    given.set(field, heading);
    sources.push([field, index]);
  }
  const fillCountry = kind === 'branches' && country !== undefined && !given.has('country');
  // An Indian bank's code is its IFSC's first four characters: a mapped file of India may leave it out.
  const bankFromIfsc = kind === 'branches' && !given.has('bank_code') && given.has('routing_number');
  for (const field of kindFields(kind)) {
    const derived = (field.name === 'country' && fillCountry) || (field.name === 'bank_code' && bankFromIfsc);
    if (field.required && !given.has(field.name) && !derived)
      problems.push({
        line: 1,
        column: field.name,
        value: null,
        reason: `required field ${field.name} is not mapped to any column`,
        rule: 'mapping.required',
      });
  }
  return {
    problems,
    carried: [...given.keys(), ...(fillCountry ? ['country'] : []), ...(bankFromIfsc ? ['bank_code'] : [])],
    toRecord({ line, cells, problems: rowProblems }) {
      const record: Record<string, string> = {};
      for (const column of columns) record[column] = '';
      for (const [field, index] of sources) record[field] = cells[index] ?? '';
      if (fillCountry) record.country = country!;
      if (bankFromIfsc && record.country === 'IN') record.bank_code = record.routing_number.slice(0, 4).toUpperCase();
      return { line, record, problems: rowProblems };
    },
  };
}

/** The import format; `partial`: any of its columns may be left out (the desk's kept copy of a mapped file). */
function importReader(kind: ImportKind, header: readonly string[], partial = false): LayoutReader {
  const definition = KIND_DEFINITIONS[kind];
  const columns = definition.columns;
  return {
    problems: headerProblems(header, columns, partial ? columns : (definition.optionalColumns ?? [])),
    carried: columns.filter((column) => header.includes(column)),
    toRecord({ line, cells, problems }) {
      const record: Record<string, string> = {};
      for (let c = 0; c < header.length; c++) record[header[c]] = cells[c] ?? '';
      for (const column of columns) record[column] ??= '';
      return { line, record, problems };
    },
  };
}

/**
 * The reader of one layout over a header; `reading` absent: the layout the header says (no mapping asked), or
 * with `kept` (the desk's own copy, in the import format) the import format with any of its columns left out.
 */
export function layoutReader(
  kind: ImportKind,
  header: readonly string[],
  reading?: FileReading,
  kept = false,
): LayoutReader {
  if (kept && !reading) return importReader(kind, header, true);
  const layout = reading?.layout ?? layoutOfHeader(kind, header);
  if (layout === 'ifsc-public') {
    if (kind !== 'branches' || !isIfscPublic(header))
      return {
        problems: [
          {
            line: 1,
            column: null,
            value: header.join(','),
            reason: `the public IFSC layout is a branches file with the header ${IFSC_PUBLIC_COLUMNS.join(',')}`,
            rule: 'header.layout',
          },
        ],
        carried: [],
        toRecord: (row) => ({ line: row.line, record: {}, problems: row.problems }),
      };
    return ifscPublicReader(header, KIND_DEFINITIONS.branches.columns);
  }
  if (layout === 'mapped') {
    const mapping = reading?.mapping;
    if (!mapping) {
      const reader = importReader(kind, header);
      return {
        ...reader,
        problems: [
          {
            line: 1,
            column: null,
            value: header.join(','),
            reason: `the header is not the ${kind} import format: map its columns to fields (docs/import.md)`,
            rule: 'header.mapping-needed',
          },
          ...reader.problems,
        ],
      };
    }
    return mappedReader(kind, header, mapping, reading?.country);
  }
  return importReader(kind, header);
}

export interface FileReadOptions extends XlsxOptions {
  /** The file's name when the path does not tell its format (an upload kept under a temporary name). */
  fileName?: string;
  /** About how many rows the file has (CSV: its line breaks), told before the first, for a progress bar. */
  onRowsExpected?: (rows: number) => void;
  /** The kind's columns the file gives, told before the first record (LayoutReader.carried). */
  onColumns?: (carried: readonly string[]) => void;
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** What a file is read from: its path, or (CSV and JSON) its bytes — the copy the desk keeps. */
export type FileSource = string | Uint8Array;

const textOf = async (source: FileSource) =>
  decodeImportText(typeof source === 'string' ? await readFile(source) : source);

/**
 * The rows of a CSV or XLSX file, header first, each handed to `onRow` as it is read (XLSX streamed from disk;
 * a CSV file's text is read at once, its rows are not kept); `onRow` returns false to stop.
 */
async function forEachSheetRow(
  source: FileSource,
  format: 'csv' | 'xlsx',
  options: FileReadOptions,
  fileProblems: FileProblem[],
  onRow: (row: SheetRow) => boolean,
): Promise<void> {
  if (format === 'xlsx') {
    if (typeof source !== 'string') throw new Error('an XLSX file is read from disk');
    for await (const row of readXlsxRows(source, options)) if (!onRow(row)) return;
    return;
  }
  const { text, invalid } = await textOf(source);
  options.onRowsExpected?.(countLineBreaks(text));
  let reading = true;
  let header: string[] | null = null;
  fileProblems.push(
    ...forEachCsvRow(text, (row) => {
      // Not UTF-8: the file is refused, naming each row and column (as the header names it) of a bad sequence.
      if (invalid)
        row.cells.forEach((cell, c) => {
          if (cell.includes(INVALID)) fileProblems.push(invalidUtf8Problem(row.line, header?.[c] ?? null, cell));
        });
      header ??= row.cells;
      return reading && (reading = onRow(row));
    }),
  );
}

const refusedProblem = (error: unknown): FileProblem => {
  if (error instanceof XlsxRefused)
    return { line: null, column: null, value: null, reason: error.message, rule: error.rule };
  return {
    line: null,
    column: null,
    value: null,
    reason: `cannot read the file: ${(error as Error).message}`,
    rule: 'file.unreadable',
  };
};

export interface FileRecords extends ReadResult {
  format: OpsFileFormat;
  layout: OpsFileLayout;
}

/** How a file was read, and the problems of the file as a whole (when any is present it is to be refused). */
export type FileReadOutcome = Omit<FileRecords, 'records'>;

/**
 * Every record of the file in the kind's import columns, handed to `onRecord` one at a time as it is read (a
 * large file is never held as records), and the problems of the file as a whole: when any is present the
 * records may be incomplete and the file is to be refused. JSON files are the import format only.
 */
export async function forEachFileRecord(
  source: FileSource,
  kind: ImportKind,
  reading: FileReading | undefined,
  options: FileReadOptions,
  onRecord: (record: FileRecord) => void,
): Promise<FileReadOutcome> {
  const named = fileFormatOf(options.fileName ?? (typeof source === 'string' ? source : 'file.csv'));
  // Bytes are the copy the desk keeps: JSON, or the import format's CSV (an XLSX file is kept as CSV).
  const format = typeof source === 'string' || named === 'json' ? named : 'csv';
  const definition = KIND_DEFINITIONS[kind];
  if (format === 'json') {
    const bytes = typeof source === 'string' ? await readFile(source) : source;
    const read = parseImportFile('file.json', bytes, definition.columns);
    options.onRowsExpected?.(read.records.length);
    // A JSON row leaves out empty fields: it gives every column.
    options.onColumns?.(definition.columns);
    if (read.fileProblems.length === 0) read.records.forEach(onRecord);
    return { fileProblems: read.fileProblems, format, layout: 'import' };
  }
  const fileProblems: FileProblem[] = [];
  let reader: LayoutReader | null = null;
  let layout: OpsFileLayout = reading?.layout ?? 'import';
  let empty = false;
  try {
    await forEachSheetRow(source, format, options, fileProblems, (row) => {
      if (!reader) {
        if (row.cells.length === 0 || (row.cells.length === 1 && row.cells[0] === '')) return !(empty = true);
        layout = reading?.layout ?? layoutOfHeader(kind, row.cells);
        reader = layoutReader(kind, row.cells, reading, typeof source !== 'string');
        fileProblems.push(...row.problems, ...reader.problems);
        options.onColumns?.(reader.carried);
        // A file whose header is refused is not read further: its rows could not be records of the kind.
        return fileProblems.length === 0;
      }
      onRecord(reader.toRecord(row));
      return true;
    });
  } catch (error) {
    fileProblems.push(refusedProblem(error));
  }
  if ((!reader || empty) && fileProblems.length === 0)
    fileProblems.push({
      line: 1,
      column: null,
      value: null,
      reason: 'the file is empty: no header row',
      rule: 'file.empty',
    });
  return { fileProblems, format, layout };
}

/** Every record of the file, held (forEachFileRecord, collected): for files a person reads, not a million rows. */
export async function readFileRecords(
  source: FileSource,
  kind: ImportKind,
  reading?: FileReading,
  options: FileReadOptions = {},
): Promise<FileRecords> {
  const records: FileRecord[] = [];
  const outcome = await forEachFileRecord(source, kind, reading, options, (record) => records.push(record));
  return { ...outcome, records };
}

/** The header and first rows of a file, and the layout they say (for the mapping screen). */
export async function detectFileLayout(
  path: string,
  kind: ImportKind,
  options: FileReadOptions = {},
): Promise<DetectedLayout | FileProblem> {
  const format = fileFormatOf(options.fileName ?? path);
  if (format === 'json') return detectLayout(kind, format, KIND_DEFINITIONS[kind].columns);
  const rows: string[][] = [];
  try {
    await forEachSheetRow(path, format, options, [], (row) => {
      rows.push(row.cells);
      return rows.length <= 5;
    });
  } catch (error) {
    return refusedProblem(error);
  }
  if (rows.length === 0)
    return { line: 1, column: null, value: null, reason: 'the file is empty: no header row', rule: 'file.empty' };
  return detectLayout(kind, format, rows[0], rows.slice(1));
}

/** An importer problem in the desk's words (row, column, value, message, rule). */
export const toOpsProblem = (p: FileProblem): OpsFileProblem => ({
  row: p.line,
  column: p.column,
  value: p.value ?? null,
  message: p.reason,
  rule: p.rule ?? (p.column ? `${p.column}.invalid` : 'row.invalid'),
});

/** How many problems each rule found, most first (ties by rule name). */
export function countByRule(problems: readonly FileProblem[]): RuleCount[] {
  const counts = new Map<string, number>();
  for (const p of problems) {
    const rule = toOpsProblem(p).rule;
    counts.set(rule, (counts.get(rule) ?? 0) + 1);
  }
  return [...counts]
    .map(([rule, count]) => ({ rule, count }))
    .sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
}

export type { OpsFileKind };
