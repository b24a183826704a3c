import type pg from 'pg';
import type { DataSet } from '../../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, tableColumns, tableValues } from '../../domain/kind-columns';
import type { KindTable, StatefulRow } from '../../domain/kind-columns';
import {
  ChangeNotHeldError,
  DataSetChangedError,
  PUBLISHING_SQL,
  SERVED_TABLES,
  numberedParameters,
  type ReplaceOptions,
} from '../store';
import { maintenance } from './migrate';

// The PostgreSQL store's load: a whole data set replaces the served one in one transaction.

// The big tables are loaded into a fresh table without indexes, indexed once, then swapped in by name in the same
// transaction: PostgreSQL's "Populating a Database" advice (building an index over loaded rows beats updating it
// row by row), and the replaced rows leave no dead tuples behind. Readers wait only for the swap itself.
const REBUILT_TABLES = ['bank_branches', 'agents'] as const;
const NEXT = '_next';

/** Creates `<table>_next`, shaped like the table but without its indexes; returns its name to load into. */
async function rebuiltTable(client: pg.PoolClient, table: (typeof REBUILT_TABLES)[number]): Promise<string> {
  await maintenance(client, `DROP TABLE IF EXISTS ${table}${NEXT}`);
  await maintenance(client, `CREATE TABLE ${table}${NEXT} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  return `${table}${NEXT}`;
}

/** Gives `<table>_next` the table's keys and indexes (as the migrations defined them), then puts it in its place. */
async function swapIn(client: pg.PoolClient, table: (typeof REBUILT_TABLES)[number]): Promise<void> {
  const next = `${table}${NEXT}`;
  const { rows } = await client.query<{
    name: string;
    definition: string;
    constraint_name: string | null;
    constraint_definition: string | null;
  }>(
    `SELECT ci.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, c.conname AS constraint_name,
            pg_get_constraintdef(c.oid) AS constraint_definition
     FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid
     LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
     WHERE i.indrelid = $1::regclass ORDER BY ci.relname`,
    [table],
  );
  for (const index of rows) {
    if (index.constraint_name) {
      await maintenance(
        client,
        `ALTER TABLE ${next} ADD CONSTRAINT ${index.constraint_name}${NEXT} ${index.constraint_definition}`,
      );
    } else {
      const definition = index.definition
        .replace(`INDEX ${index.name} ON `, `INDEX ${index.name}${NEXT} ON `)
        .replace(new RegExp(` ON ((?:\\w+\\.)?)${table} USING `), ` ON $1${next} USING `);
      await maintenance(client, definition);
    }
  }
  await maintenance(client, `DROP TABLE ${table}`);
  await maintenance(client, `ALTER TABLE ${next} RENAME TO ${table}`);
  // Renaming a key's index renames its constraint too, so every name is the migration's again.
  for (const index of rows) await maintenance(client, `ALTER INDEX ${index.name}${NEXT} RENAME TO ${index.name}`);
}

// How many rows one multi-row INSERT … SELECT FROM unnest(…) carries while loading a data set.
const LOAD_CHUNK = 5000;

/**
 * Replaces the served data set (LookupStore.replaceDataSet) on a connection of the pool. One transaction: readers
 * keep seeing the old data set (MVCC) until the commit, then the new one. The version row is locked first, so two
 * imports run one after the other rather than interleave. `importedAt`: the time of the sources that give none.
 */
export async function replaceDataSet(
  pool: pg.Pool,
  dataSet: DataSet,
  options: ReplaceOptions,
  importedAt: string,
): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // A large load may take longer than a lookup is allowed to.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    // Locked until the commit: a replace committed by anyone after this check waits for ours, or we for it.
    const served = (await maintenance(client, 'SELECT version::text AS version FROM data_version FOR UPDATE')).rows[0]
      .version as string;
    if (options.expectedVersion !== undefined && served !== options.expectedVersion) {
      throw new DataSetChangedError(options.expectedVersion, served);
    }
    // The two large tables are built anew and swapped in (below); the others are emptied and filled.
    for (const table of SERVED_TABLES.filter((t) => t !== BRANCH_TABLE.table && t !== AGENT_TABLE.table)) {
      await maintenance(client, `DELETE FROM ${table}`);
    }
    /** Loads `rows` into `table`, its columns named `name` (text) or `name:int`, as the desk's insertMany. */
    const load = async (table: string, columns: string[], rows: unknown[][], onConflict = '') => {
      const names = columns.map((column) => column.replace(/:int$/, '')).join(', ');
      const unnest = columns.map((column, i) => `$${i + 1}::${column.endsWith(':int') ? 'int' : 'text'}[]`);
      for (let start = 0; start < rows.length; start += LOAD_CHUNK) {
        const chunk = rows.slice(start, start + LOAD_CHUNK);
        const arrays = columns.map((_, i) => chunk.map((row) => row[i]));
        const sql = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${unnest.join(', ')}) ${onConflict}`;
        await maintenance(client, sql, arrays);
      }
    };
    // Ids 1…n in data set order, as SQLite's rowid gives them: the id is part of mode-04 agent codes.
    const loadKind = async <R extends StatefulRow>(kind: KindTable<R, (typeof REBUILT_TABLES)[number]>, rows: R[]) =>
      load(
        await rebuiltTable(client, kind.table),
        ['id:int', ...tableColumns(kind)],
        rows.map((row, i) => [i + 1, ...tableValues(kind, row)]),
      );
    const countries = dataSet.countries.map((c) => [c.code, c.name, c.currency]);
    await load('receiving_countries', ['code', 'name', 'currency'], countries);
    const modes = dataSet.deliveryModes.map((m) => [m.value, m.name]);
    await load('delivery_modes', ['value:int', 'name'], modes);
    const states = dataSet.states.map((s) => [s.country, s.code, s.name]);
    await load('states', ['country', 'code', 'name'], states);
    // Like SQLite's INSERT OR IGNORE: a city listed twice is kept once.
    const cities = dataSet.cities.map((c) => [c.country, c.state, c.name]);
    await load('cities', ['country', 'state', 'name'], cities, 'ON CONFLICT DO NOTHING');
    await load(
      'head_offices',
      ['code', 'position:int', 'country', 'name', 'network_name', 'payout_type', 'demo_locations:int'],
      dataSet.headOffices.map((h, i) => [
        h.code,
        i + 1,
        h.country,
        h.name,
        h.networkName,
        h.payoutType,
        h.demoLocations,
      ]),
    );
    await load(
      'head_office_delivery_modes',
      ['head_office_code', 'delivery_mode:int'],
      dataSet.headOffices.flatMap((h) => h.deliveryModes.map((m) => [h.code, m])),
    );
    await load(
      'head_office_banks',
      ['head_office_code', 'bank_code', 'position:int'],
      dataSet.headOffices.flatMap((h) => h.bankCodes.map((b, i) => [h.code, b, i + 1])),
    );
    await loadKind(BRANCH_TABLE, dataSet.branches);
    const rows = dataSet.branches.length + dataSet.agents.length;
    options.onProgress?.(dataSet.branches.length, rows);
    await loadKind(AGENT_TABLE, dataSet.agents);
    options.onProgress?.(rows, rows);
    await load(
      'data_sources',
      ['kind', 'file', 'sha256', 'rows:int', 'imported_at', 'countries'],
      dataSet.sources.map((s) => [
        s.kind,
        s.file,
        s.sha256,
        s.rows,
        s.importedAt ?? importedAt,
        (s.countries ?? []).join(' '),
      ]),
    );
    for (const table of REBUILT_TABLES) await swapIn(client, table);
    await client.query('UPDATE data_version SET version = version + 1');
    const publishing = options.publishing;
    if (publishing) {
      // Last, just before the commit: the change's row is locked only that long (its lease's renewals wait).
      const until = new Date(Date.now() + publishing.leaseMs).toISOString();
      const held = await client.query(numberedParameters(PUBLISHING_SQL.hold), [
        until,
        publishing.changeId,
        publishing.owner,
      ]);
      if (held.rowCount !== 1) throw new ChangeNotHeldError(publishing.changeId);
      await client.query(numberedParameters(PUBLISHING_SQL.record), [publishing.changeId, new Date().toISOString()]);
    }
    if (options.commitWhen && !(await options.commitWhen)) {
      await client.query('ROLLBACK');
      client.release();
      return false;
    }
    await maintenance(client, 'COMMIT');
    options.onCommit?.();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    throw error;
  }
  try {
    // Fresh statistics and visibility map for the planner (index-only counts) after replacing every row.
    await client.query('SET statement_timeout = 0');
    await maintenance(
      client,
      'VACUUM (ANALYZE) bank_branches, agents, head_offices, head_office_banks, head_office_delivery_modes, states',
    );
    await client.query('RESET statement_timeout');
  } finally {
    client.release();
  }
  return true;
}
