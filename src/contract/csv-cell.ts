// Spreadsheet formula injection (CWE-1236): a cell that begins with = + - @, a tab or a carriage return is read
// by Excel, LibreOffice and Google Sheets as a formula. Every CSV the project writes (npm run export, the portal's
// CSV download, the desk's problem and quality CSVs) passes its cells through `toCsvCell`, which prefixes such a
// value with an apostrophe (OWASP's advice) — a signed number or phone too, since `+1+1` is evaluated; the
// importer reads cells back through `fromCsvCell`, so import → export → import gives the same rows.

// Apostrophes already in front of such a start are counted too, so the mapping is one-to-one both ways.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;

/** The cell as written to a CSV file: a formula-looking value gets a leading apostrophe. */
export function toCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The value a cell written by `toCsvCell` stands for (a plain value is returned as it is). */
export function fromCsvCell(cell: string): string {
  return ESCAPED_FORMULA.test(cell) ? cell.slice(1) : cell;
}
