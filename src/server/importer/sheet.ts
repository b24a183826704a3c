import Papa from 'papaparse';
import { fromCsvCell } from '../../contract/csv-cell';
import type { FileProblem } from './file-problem';

// A file as rows of text cells, whatever its format (CSV here, XLSX in xlsx.ts): the first row is the header.
// Layouts (layouts.ts) turn these rows into the records of a kind.

export interface SheetRow {
  /** The physical line (CSV: where the row starts, the header is 1) or the worksheet's row number. */
  line: number;
  /** Cells trimmed; a CSV cell the export escaped against formula injection is read back as its value. */
  cells: string[];
  /** Problems of the row as read (a CSV row with more or fewer fields than the header, a formula cell). */
  problems: FileProblem[];
}

export interface Sheet {
  rows: SheetRow[];
  /** Problems of the whole file (quoting): when any is present the rows may be incomplete. */
  fileProblems: FileProblem[];
}

/**
 * CSV through papaparse rather than the seed's csv-parse: several times faster on a large branch file (see
 * docs/benchmarks/import.md). Rows are handed over one at a time (papaparse's `step`), so a
 * million-row file is never held as rows (the operations desk stages it streamed). Empty lines are kept by the
 * parser and skipped here so that every row knows its physical line. Rows after the header whose field count
 * differs from the header's carry a problem (rule `row.fields`). A quoting error makes the rest of the file
 * unreliable: it is reported as a problem of the whole file and reading stops.
 */
export function forEachCsvRow(text: string, onRow: (row: SheetRow) => void): FileProblem[] {
  const fileProblems: FileProblem[] = [];
  let index = 0;
  let line = 1;
  let width = 0;
  Papa.parse<string[]>(text, {
    skipEmptyLines: false,
    step(results, parser) {
      const fields = results.data;
      const rowLine = line;
      // Only a quoted field can hold a line break: the next row starts after the ones it holds.
      line += 1;
      for (const field of fields) if (field.includes('\n')) line += field.split('\n').length - 1;
      const quotes = results.errors.find((error) => error.type === 'Quotes');
      if (quotes) {
        fileProblems.push({
          line: rowLine,
          column: null,
          reason: `not readable as CSV: ${quotes.message}`,
          rule: 'csv.quotes',
        });
        parser.abort();
        return;
      }
      const i = index++;
      if (i === 0) width = fields.length;
      else if (fields.length === 1 && fields[0].trim() === '') return; // an empty line
      const problems: FileProblem[] = [];
      if (i > 0 && fields.length !== width) {
        problems.push({
          line: rowLine,
          column: null,
          reason: `has ${fields.length} fields; the header has ${width}`,
          rule: 'row.fields',
        });
      }
      const cells = new Array<string>(fields.length);
      for (let c = 0; c < fields.length; c++) cells[c] = i === 0 ? fields[c].trim() : fromCsvCell(fields[c].trim());
      onRow({ line: rowLine, cells, problems });
    },
  });
  return fileProblems;
}

/** The whole file as rows (forEachCsvRow, collected). */
export function csvSheet(text: string): Sheet {
  const rows: SheetRow[] = [];
  const fileProblems = forEachCsvRow(text, (row) => rows.push(row));
  return { rows, fileProblems };
}
