import type pg from 'pg';
import type { DataSet } from '../../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, tableColumns, tableValues } from '../../domain/kind-columns';
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
    const load = async (table: string, columns: string[], types: string[], rows: unknown[][], onConflict = '') => {
      for (let start = 0; start < rows.length; start += LOAD_CHUNK) {
        const chunk = rows.slice(start, start + LOAD_CHUNK);
        const arrays = columns.map((_, i) => chunk.map((row) => row[i]));
        const unnest = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
        await maintenance(
          client,
          `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest}) ${onConflict}`,
          arrays,
        );
      }
    };
    await load(
      'receiving_countries',
      ['code', 'name', 'currency'],
      ['text', 'text', 'text'],
      dataSet.countries.map((c) => [c.code, c.name, c.currency]),
    );
    await load(
      'delivery_modes',
      ['value', 'name'],
      ['int', 'text'],
      dataSet.deliveryModes.map((m) => [m.value, m.name]),
    );
    await load(
      'states',
      ['country', 'code', 'name'],
      ['text', 'text', 'text'],
      dataSet.states.map((s) => [s.country, s.code, s.name]),
    );
    // Like SQLite's INSERT OR IGNORE: a city listed twice is kept once.
    await load(
      'cities',
      ['country', 'state', 'name'],
      ['text', 'text', 'text'],
      dataSet.cities.map((c) => [c.country, c.state, c.name]),
      'ON CONFLICT DO NOTHING',
    );
    await load(
      'head_offices',
      ['code', 'position', 'country', 'name', 'network_name', 'payout_type', 'demo_locations'],
      ['text', 'int', 'text', 'text', 'text', 'text', 'int'],
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
      ['head_office_code', 'delivery_mode'],
      ['text', 'int'],
      dataSet.headOffices.flatMap((h) => h.deliveryModes.map((m) => [h.code, m])),
    );
    await load(
      'head_office_banks',
      ['head_office_code', 'bank_code', 'position'],
      ['text', 'text', 'int'],
      dataSet.headOffices.flatMap((h) => h.bankCodes.map((b, i) => [h.code, b, i + 1])),
    );
    // Ids 1…n in data set order, as SQLite's rowid gives them: the id is part of mode-04 agent codes.
    await load(
      await rebuiltTable(client, BRANCH_TABLE.table),
      ['id', ...tableColumns(BRANCH_TABLE)],
      ['int', ...tableColumns(BRANCH_TABLE).map(() => 'text')],
      dataSet.branches.map((b, i) => [i + 1, ...tableValues(BRANCH_TABLE, b)]),
    );
    const rows = dataSet.branches.length + dataSet.agents.length;
    options.onProgress?.(dataSet.branches.length, rows);
    await load(
      await rebuiltTable(client, AGENT_TABLE.table),
      ['id', ...tableColumns(AGENT_TABLE)],
      ['int', ...tableColumns(AGENT_TABLE).map(() => 'text')],
      dataSet.agents.map((a, i) => [i + 1, ...tableValues(AGENT_TABLE, a)]),
    );
    options.onProgress?.(rows, rows);
    await load(
      'data_sources',
      ['kind', 'file', 'sha256', 'rows', 'imported_at', 'countries'],
      ['text', 'text', 'text', 'int', 'text', 'text'],
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
