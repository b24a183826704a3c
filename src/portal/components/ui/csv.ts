import { stringify } from 'csv-stringify/browser/esm/sync';
import { toCsvCell } from '../../../contract/csv-cell';

// The CSV writer of the export button, in its own module: the button loads it when a teller exports, so the
// screens' first load does not carry csv-stringify.
//
// The CSV is the import format of docs/import.md (same headings, same columns, values as the importer reads
// them), so an export imports again with no change; a spreadsheet user takes the XLSX (xlsx.ts), where codes
// and phones are text cells. No `="…"` wrapping: the importer would read it literally.

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
  /** A code or phone number (routing number, bank code, IFSC): a text cell in the XLSX, leading zeros kept. */
  code?: boolean;
}

// A phone number or a signed number (`+52 33 1234 5678`): digits and punctuation only, nothing a spreadsheet
// could run as a formula (no name, no reference), so it is written as it is, as the import format has it.
const PLAIN_NUMBER = /^[+-][0-9 ().+-]*$/;

/** A value as the import format writes it: a formula-looking one gets the apostrophe the importer removes. */
export const importCell = (text: string) => (PLAIN_NUMBER.test(text) ? text : toCsvCell(text));

function cell<T>(column: CsvColumn<T>, row: T): string {
  const value = column.value(row);
  if (value === null || value === undefined) return '';
  return importCell(String(value));
}

/** CSV text (no BOM) of a header row and the rows; every cell goes through `importCell`. */
export function toCsv<T>(rows: T[], columns: CsvColumn<T>[], withHeader = true): string {
  const records = rows.map((row) => columns.map((column) => cell(column, row)));
  return stringify(withHeader ? [columns.map((c) => toCsvCell(c.header)), ...records] : records);
}
