import Papa from 'papaparse';

/**
 * The rows of a CSV text as objects by column, read with the project's one CSV parser (papaparse, as the
 * importer reads files). Cells are kept as written: a test compares them to what the service serves or writes.
 */
export function csvRows(text: string | Buffer): Record<string, string>[] {
  const parsed = Papa.parse<Record<string, string>>(text.toString().replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  });
  if (parsed.errors.length)
    throw new Error(`not readable as CSV: ${parsed.errors[0].message} (row ${parsed.errors[0].row})`);
  return parsed.data;
}
