import { stringify } from 'csv-stringify/browser/esm/sync';
import { toCsvCell } from '../../../contract/csv-cell';

// The CSV writer of the export button, in its own module: the button loads it when a teller exports, so the
// screens' first load does not carry csv-stringify.
//
// The CSV is the import format of docs/import.md (same headings, same columns, values as the importer reads
// them), so an export imports again with no change; a spreadsheet user takes the XLSX (xlsx.ts), where codes
// and phones are text cells. Every cell goes through `toCsvCell`, the one formula escape of every CSV the project
// writes: a signed number or phone (`+52 …`, `-1+2`) gets its apostrophe too, since a spreadsheet evaluates
// `+1+1`; the importer removes it. Codes are written as they are (`010150166`), with no `="…"` wrapping, which
// the importer would read literally.

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
  /** A code or phone number (routing number, bank code, IFSC): a text cell in the XLSX, leading zeros kept. */
  code?: boolean;
}

function cell<T>(column: CsvColumn<T>, row: T): string {
  const value = column.value(row);
  if (value === null || value === undefined) return '';
  return toCsvCell(String(value));
}

/** CSV text (no BOM) of a header row and the rows; every cell goes through `toCsvCell`. */
export function toCsv<T>(rows: T[], columns: CsvColumn<T>[], withHeader = true): string {
  const records = rows.map((row) => columns.map((column) => cell(column, row)));
  return stringify(withHeader ? [columns.map((c) => toCsvCell(c.header)), ...records] : records);
}
