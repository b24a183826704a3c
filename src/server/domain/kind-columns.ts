import type { AgentRow, BranchRow, HeadOfficeRow } from './data-set';

// One declaration per kind of row: each column once — its name in the files (the import and export
// headings of docs/import.md) and in both stores' tables, which are the same, and the row's field it holds.
// Both stores' write and read paths, the importer's headings and the exporter's cells are made from these; the
// desk's difference compares the same fields (desk/diff.ts). A column added here is added everywhere (its
// migration aside).

export interface KindColumn<R> {
  /** The heading in the files and the column in the tables (snake_case). */
  name: string;
  /** The row's field (camelCase). */
  field: keyof R & string;
}

export interface KindTable<R, Table extends string = string> {
  /** The table in both stores. */
  table: Table;
  /** The file's columns, in order: the import format's headings, and the table's columns (with `state_published`). */
  columns: readonly KindColumn<R>[];
}

const column = <R>(name: string, field: keyof R & string): KindColumn<R> => ({ name, field });

export const BRANCH_TABLE: KindTable<BranchRow, 'bank_branches'> = {
  table: 'bank_branches',
  columns: [
    column('country', 'country'),
    column('bank_code', 'bankCode'),
    column('bank_name', 'bankName'),
    column('routing_number', 'routingNumber'),
    column('branch_name', 'branchName'),
    column('address_line1', 'addressLine1'),
    column('address_line2', 'addressLine2'),
    column('city', 'city'),
    column('district', 'district'),
    column('state', 'state'),
  ],
};

export const AGENT_TABLE: KindTable<AgentRow, 'agents'> = {
  table: 'agents',
  columns: [
    column('agent_code', 'agentCode'),
    column('head_office_code', 'headOfficeCode'),
    column('country', 'country'),
    column('agent_name', 'agentName'),
    column('address_line1', 'addressLine1'),
    column('address_line2', 'addressLine2'),
    column('city', 'city'),
    column('state', 'state'),
    column('phone_number', 'phoneNumber'),
  ],
};

export type StatefulRow = { state: string | null; publishedState?: string | null };

/** The file's headings (the import format), in order. */
export const fileColumns = <R>(kind: KindTable<R>): string[] => kind.columns.map((c) => c.name);

/**
 * The table's columns for a write: the file's, then `state_published` (the state as the file spelled it; the
 * `state` column holds its code).
 */
export const tableColumns = <R>(kind: KindTable<R>): string[] => [...fileColumns(kind), 'state_published'];

/** A row's values in tableColumns order. */
export function tableValues<R extends StatefulRow>(kind: KindTable<R>, row: R): unknown[] {
  return [
    ...kind.columns.map((c) => row[c.field] ?? null),
    row.publishedState === undefined ? row.state : row.publishedState,
  ];
}

/**
 * `col AS "field"` for each column, and `state_published AS "publishedState"` unless `published` is false (the
 * search index reads the served fields only): a read of the table into rows.
 */
export const selectColumns = <R>(kind: KindTable<R>, { published = true } = {}): string =>
  [
    ...kind.columns.map((c) => (c.name === c.field ? c.name : `${c.name} AS "${c.field}"`)),
    ...(published ? ['state_published AS "publishedState"'] : []),
  ].join(', ');

/** A row as the file writes it: every cell text, absent values empty, the state as the file spelled it. */
export function fileCells<R extends StatefulRow>(kind: KindTable<R>, row: R): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const c of kind.columns) cells[c.name] = String(row[c.field] ?? '');
  cells.state = String(row.publishedState ?? row.state ?? '');
  return cells;
}

/** SQLite's insert of a row (values: tableValues). */
export const insertInto = <R>(kind: KindTable<R>): string => {
  const columns = tableColumns(kind);
  return `INSERT INTO ${kind.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
};

/**
 * A row's fields by the kind's columns, in order: each value as text, absent values null (what the desk's
 * difference compares, and what the ops record search answers).
 */
export function fieldsOf<R>(kind: KindTable<R>, row: { [K in keyof R]: R[K] | null }): Record<string, string | null> {
  // A loop, not Object.fromEntries over pairs: once per row of a million-row file.
  const fields: Record<string, string | null> = {};
  for (const c of kind.columns) {
    const value = row[c.field];
    fields[c.field] = value === null || value === undefined ? null : String(value);
  }
  return fields;
}

/** A head office's fields, as the desk's difference compares them and the ops record search answers them. */
export const headOfficeFields = (h: HeadOfficeRow): Record<string, string | null> => ({
  code: h.code,
  country: h.country,
  name: h.name,
  networkName: h.networkName,
  payoutType: h.payoutType,
  deliveryModes: h.deliveryModes.join(' '),
  bankCodes: h.bankCodes.join(' '),
  demoLocations: String(h.demoLocations),
});
