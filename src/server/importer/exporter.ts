import { stringify } from 'csv-stringify/sync';
import { toCsvCell } from '../../contract/csv-cell';
import type { LookupStore } from '../store/store';
import { KIND_DEFINITIONS, type ImportKind } from './kinds';

// Export: what is served, back in the import format (CSV with the same header), so an exported file can be
// edited and imported again.

export async function exportCsv(
  store: LookupStore,
  kind: ImportKind,
  options: { country?: string } = {},
): Promise<{ csv: string; rows: number }> {
  const definition = KIND_DEFINITIONS[kind];
  let cells = definition.cells((await store.readDataSet()).dataSet);
  if (options.country) cells = cells.filter((row) => row.country === options.country);
  // Every cell through the one formula-injection rule (contract/csv-cell.ts); the importer reads it back.
  const written = cells.map((row) =>
    Object.fromEntries(Object.entries(row).map(([column, value]) => [column, toCsvCell(value)])),
  );
  return { csv: stringify(written, { header: true, columns: [...definition.columns] }), rows: cells.length };
}
