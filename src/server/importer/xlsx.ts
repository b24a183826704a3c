import { createReadStream, type ReadStream } from 'node:fs';
import type { Transform, TransformCallback } from 'node:stream';
import ExcelJS from 'exceljs';
import { XLSX_DEFAULT_MAX_UNPACKED_BYTES } from '../../contract/ops-files';
import type { SheetRow } from './sheet';

// XLSX read streamed: exceljs's WorkbookReader, never the `xlsx` package (its fixes for the published
// advisories are not on npm). Only the first worksheet is read, row by row; the rows are never all held here.
//
// Two things a spreadsheet may carry that a CSV cannot, and both are refused:
// - a zip bomb: every inflated byte of every entry is counted as it streams out of the inflater, and past the
//   limit the read stops at once (the file's stream is destroyed), so memory stays bounded whatever the
//   archive's headers claim. The count is taken on the unzip stream's entries, before exceljs sees a byte, which
//   also covers entries exceljs copies to a temporary file or drains unread.
// - formulas: a cell holding a formula is a problem naming the cell and the formula; its cached result is never
//   passed on as data (a value computed by someone else's spreadsheet is not what the file says).

export class XlsxRefused extends Error {
  constructor(
    message: string,
    readonly rule: string,
  ) {
    super(message);
  }
}

export interface XlsxOptions {
  /** Refuse the file once its entries inflate to more than this many bytes. */
  maxUnpackedBytes?: number;
}

/** Spreadsheet column letters of a 1-based column number (1 → A, 27 → AA). */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

type CellValue = ExcelJS.CellValue;

/** A cell's value as the text an import cell holds; dates as ISO dates, rich text joined. */
function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('hyperlink' in value) return cellText(value.text as CellValue);
  if ('error' in value) return String(value.error);
  return '';
}

const formulaOf = (value: CellValue): string | null => {
  if (value === null || typeof value !== 'object' || value instanceof Date) return null;
  if ('formula' in value && value.formula) return value.formula;
  if ('sharedFormula' in value && value.sharedFormula) return `shared formula of ${value.sharedFormula}`;
  return null;
};

/**
 * Counts the bytes each zip entry inflates to, as they pass. exceljs pipes the file into unzipper's Parse
 * stream and reads the entries it pushes; taking that stream when the file is piped into it gives every entry
 * before anyone reads from it.
 */
function countInflatedBytes(input: ReadStream, limit: number, refuse: (error: XlsxRefused) => void) {
  let total = 0;
  const pipe = input.pipe.bind(input);
  input.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T => {
    const zip = destination as unknown as { push(chunk: unknown): boolean };
    const push = zip.push.bind(zip);
    zip.push = (entry: unknown) => {
      if (entry && typeof entry === 'object' && 'path' in entry) {
        const stream = entry as unknown as Transform;
        const transform = stream._transform.bind(stream);
        stream._transform = (chunk: Buffer, encoding: BufferEncoding, done: TransformCallback) => {
          total += chunk.length;
          if (total > limit) {
            const error = new XlsxRefused(
              `the spreadsheet unpacks to more than ${limit} bytes (entry ${String((entry as { path: string }).path)}): refused as a possible zip bomb`,
              'xlsx.unpacked-size',
            );
            refuse(error);
            done(error);
            return;
          }
          transform(chunk, encoding, done);
        };
      }
      return push(entry);
    };
    return pipe(destination, options);
  }) as typeof input.pipe;
}

/**
 * The rows of the first worksheet, streamed: `line` is the sheet's row number (1: the header); empty rows are
 * left out. Throws XlsxRefused when the file is not a readable spreadsheet or unpacks past the limit.
 */
export async function* readXlsxRows(path: string, options: XlsxOptions = {}): AsyncGenerator<SheetRow> {
  const limit = options.maxUnpackedBytes ?? XLSX_DEFAULT_MAX_UNPACKED_BYTES;
  const input = createReadStream(path);
  let refused: XlsxRefused | null = null;
  let refuse!: (error: XlsxRefused) => void;
  // Settles only with a refusal: raced against every step, so a read exceljs leaves waiting ends too.
  const refusal = new Promise<never>((_, reject) => {
    refuse = (error) => {
      if (refused) return;
      refused = error;
      input.destroy();
      reject(error);
    };
  });
  refusal.catch(() => {});
  countInflatedBytes(input, limit, refuse);
  input.on('error', (error) => refuse(new XlsxRefused(`cannot read the file: ${error.message}`, 'file.unreadable')));

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const step = <T>(next: Promise<T>): Promise<T> => Promise.race([next, refusal]);
  const sheets = reader[Symbol.asyncIterator]();
  try {
    const first = await step(sheets.next()).catch((error: Error) => {
      if (error instanceof XlsxRefused) throw error;
      throw new XlsxRefused(`not readable as XLSX: ${error.message}`, 'xlsx.unreadable');
    });
    if (first.done) throw new XlsxRefused('the workbook has no worksheet', 'xlsx.no-sheet');
    const rows = first.value[Symbol.asyncIterator]();
    for (;;) {
      const next = await step(rows.next()).catch((error: Error) => {
        if (error instanceof XlsxRefused) throw error;
        throw new XlsxRefused(`not readable as XLSX: ${error.message}`, 'xlsx.unreadable');
      });
      if (next.done) break;
      const row = next.value;
      const values = row.values as CellValue[];
      const cells: string[] = new Array<string>(Math.max(0, values.length - 1));
      const problems: SheetRow['problems'] = [];
      let empty = true;
      for (let c = 1; c < values.length; c++) {
        const value = values[c];
        const formula = formulaOf(value);
        if (formula !== null) {
          const cell = `${columnLetters(c)}${row.number}`;
          problems.push({
            line: row.number,
            column: null,
            value: `=${formula}`,
            reason: `cell ${cell} holds the formula =${formula}: formulas are not read, give the value itself`,
            rule: 'xlsx.formula',
          });
          cells[c - 1] = '';
          empty = false;
          continue;
        }
        const text = cellText(value).trim();
        cells[c - 1] = text;
        if (text) empty = false;
      }
      for (let c = 0; c < cells.length; c++) cells[c] ??= '';
      if (empty && problems.length === 0) continue;
      yield { line: row.number, cells, problems };
    }
  } finally {
    input.destroy();
  }
}
