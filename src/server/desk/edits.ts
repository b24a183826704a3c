import type { ChangeKind } from '../../contract/ops-changes';
import type { RecordEdit } from '../../contract/ops-edits';
import type { DataSet } from '../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE } from '../domain/kind-columns';
import { KIND_DEFINITIONS, type KindRow } from '../importer/kinds';
import { kindRows } from './diff';
import { parseRecordKey, recordKeyOf } from '../../contract/record-key';
import { keyOfCells, servedLookup, type StoredScope } from './scope';

// Records changed without a file (POST /v1/ops/changes, application/json): the edits become a file in the import
// format (JSON, one element per added or changed record: a changed record is its served cells with the edit's
// fields over them) and a scope of `upsert` with the keys removed, staged like any change (scope.ts) — validated
// by the importer's rules, diffed, approved by a checker, versioned and rolled back as a file is.

/** An edit that cannot apply to what is served (a key not served, a field not of the kind): a 400 naming it. */
export class EditError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'EditError';
  }
}

/** A head office's fields as a record page shows them → its import columns. */
const PARTNER_FIELDS: Record<string, string> = {
  code: 'head_office_code',
  country: 'country',
  name: 'head_office_name',
  networkName: 'network_name',
  payoutType: 'payout_type',
  deliveryModes: 'delivery_modes',
  bankCodes: 'routes_to_banks',
  demoLocations: 'demo_locations',
};

/** A kind's field names (as a record page shows them, or as the import format's columns) → import columns. */
function columnsOf(kind: ChangeKind): Map<string, string> {
  const pairs: [string, string][] =
    kind === 'partners'
      ? Object.entries(PARTNER_FIELDS)
      : (kind === 'branches' ? BRANCH_TABLE : AGENT_TABLE).columns.map((c) => [c.field, c.name]);
  const columns = new Map(pairs);
  for (const column of KIND_DEFINITIONS[kind].columns) columns.set(column, column);
  return columns;
}

/** A served record's value of a field as its record page shows it (to leave an unchanged field as served). */
function shownValue(row: KindRow, field: string): string | undefined {
  const value = (row as unknown as Record<string, unknown>)[field];
  if (value === undefined || value === null) return value === null ? '' : undefined;
  return Array.isArray(value) ? value.join(' ') : String(value);
}

export interface EditsFile {
  /** The added and changed records, in the import format (JSON). */
  bytes: Buffer;
  fileName: string;
  scope: StoredScope;
}

/** The edits as a change's file and scope, against the served data; EditError when one cannot apply. */
export function editsFile(kind: ChangeKind, edits: RecordEdit[], served: DataSet): EditsFile {
  const definition = KIND_DEFINITIONS[kind];
  const columns = columnsOf(kind);
  const lookup = servedLookup(kind, served);
  const cellsOf = definition.cellsOf(served);
  const { identity } = kindRows(kind, served);
  const records: Record<string, string>[] = [];
  const removes: string[] = [];
  const touched = new Set<string>();
  const once = (key: string, at: string) => {
    if (touched.has(key))
      throw new EditError(at, `${at}: the record ${recordKeyOf(key.split('\u001f'))} is edited twice in one change`);
    touched.add(key);
  };
  const servedOf = (at: string, key: string) => {
    const parts = parseRecordKey(key);
    const row = parts && lookup(parts.join('\u001f'), 1);
    if (!row) throw new EditError(at, `${at}: no served ${kind} record has the key ${key}`);
    return row;
  };
  const overlay = (at: string, cells: Record<string, string>, fields: Record<string, string | null>, row?: KindRow) => {
    for (const [field, value] of Object.entries(fields)) {
      const column = columns.get(field);
      if (!column) throw new EditError(`${at}.fields.${field}`, `${at}: ${field} is not a field of ${kind}`);
      const text = (value ?? '').trim();
      // A field sent as served keeps the cell as served (a state as the file spelled it, not its code).
      if (row && shownValue(row, field) === text) continue;
      cells[column] = text;
    }
    return cells;
  };
  edits.forEach((edit, index) => {
    const at = `edits.${index}`;
    if (edit.op === 'add') {
      const cells = overlay(at, Object.fromEntries(definition.columns.map((c) => [c, ''])), edit.fields);
      const key = keyOfCells(kind, cells);
      if (lookup(key, 1))
        throw new EditError(
          at,
          `${at}: a ${kind} record with the key ${recordKeyOf(key.split('\u001f'))} is served already: change it instead`,
        );
      once(key, at);
      records.push(cells);
      return;
    }
    const row = servedOf(`${at}.key`, edit.key);
    const key = identity(row).key;
    once(key, at);
    if (edit.op === 'remove') {
      removes.push(key);
      return;
    }
    const cells = overlay(at, cellsOf(row), edit.fields, row);
    const changedKey = keyOfCells(kind, cells);
    // A record whose key changes (a corrected routing number) is the old one removed and the new one added.
    if (changedKey !== key) {
      if (lookup(changedKey, 1))
        throw new EditError(
          at,
          `${at}: a ${kind} record with the key ${recordKeyOf(changedKey.split('\u001f'))} is served already`,
        );
      once(changedKey, at);
      removes.push(key);
    }
    records.push(cells);
  });
  return {
    bytes: Buffer.from(JSON.stringify(records, null, 1)),
    fileName: 'edits.json',
    scope: { mode: 'upsert', removes },
  };
}
