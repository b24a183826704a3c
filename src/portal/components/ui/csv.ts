import { stringify } from 'csv-stringify/browser/esm/sync';
import { toCsvCell } from '../../../contract/csv-cell';

// The CSV writer of the export button, in its own module: the button loads it when a teller exports, so the
// screens' first load does not carry csv-stringify.

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
  /** A code (routing number, bank code, IFSC): kept as text so a spreadsheet keeps its leading zeros. */
  code?: boolean;
}

// A code of letters and digits only, written as the text formula ="010150166": the one form Excel, LibreOffice
// and Google Sheets all open as text. It cannot carry anything else: other values never get this form.
const PLAIN_CODE = /^[A-Za-z0-9]+$/;

function cell<T>(column: CsvColumn<T>, row: T): string {
  const value = column.value(row);
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (column.code && PLAIN_CODE.test(text)) return `="${text}"`;
  return toCsvCell(text);
}

/** CSV text (no BOM) of a header row and the rows; every cell goes through the contract's `toCsvCell`. */
export function toCsv<T>(rows: T[], columns: CsvColumn<T>[], withHeader = true): string {
  const records = rows.map((row) => columns.map((column) => cell(column, row)));
  return stringify(withHeader ? [columns.map((c) => toCsvCell(c.header)), ...records] : records);
}
