import type { CsvColumn } from './csv';

// The XLSX of the export button, written with exceljs (a maintained writer; not the npm `xlsx` 0.18.5 with its
// open advisories), loaded only when a teller asks for it: exceljs is ~900 KB, the screens' first load does
// not carry it. Every value is written as a string cell: nothing is read as a formula or a number, so a routing
// number keeps its leading zeros and a phone its `+`; code columns are also formatted as text (`@`), so an edit
// in the spreadsheet stays text.

/** The workbook's bytes: one sheet, a bold header row, the rows. */
export async function toXlsx<T>(sheetName: string, rows: T[], columns: CsvColumn<T>[]): Promise<ArrayBuffer> {
  // A CommonJS package: its classes are on the namespace (Node) or on its default export (the browser bundle).
  const module = await import('exceljs');
  const { Workbook } = (module as unknown as { default?: typeof module }).default ?? module;
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = columns.map((column) => ({
    header: column.header,
    width: Math.min(60, Math.max(12, column.header.length + 2)),
    style: column.code ? { numFmt: '@' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of rows) {
    sheet.addRow(
      columns.map((column) => {
        const value = column.value(row);
        return value === null || value === undefined ? null : String(value);
      }),
    );
  }
  return workbook.xlsx.writeBuffer() as Promise<ArrayBuffer>;
}
