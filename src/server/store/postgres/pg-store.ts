import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../../paths';
import { type City, type PayoutNetwork, type PayoutType } from '../../../contract';
import type { AgentRow, BranchRow, DataSet, DataSetVisitor } from '../../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, selectColumns, tableColumns, tableValues } from '../../domain/kind-columns';
import {
  ChangeNotHeldError,
  DataSetChangedError,
  PUBLISHING_SQL,
  numberedParameters,
  StoreUnavailableError,
  type DataStatus,
  type LookupStore,
  type ReplaceOptions,
  type ReferenceData,
  toPayoutNetwork,
  type HeadOfficeNetworkRow,
  type StoreSource,
} from '../store';

// The PostgreSQL store: the same questions as the SQLite store (sqlite/sqlite-store.ts) answered row for row
// alike (the searches are answered by the in-memory index, src/server/search, from either store's rows). Schema and the
// reasons it differs from SQLite's:
// migrations/001-initial.sql.

// Read from the source tree also when compiled: SQL is not bundled (paths.ts).
const MIGRATIONS_DIR = join(REPO_ROOT, 'src', 'server', 'store', 'postgres', 'migrations');
// Any fixed number: serialises migrations when several instances (or `npm run migrate`) start at once.
const MIGRATION_LOCK = 4_040_404;

export interface PgStoreOptions {
  connectionString: string;
  /** Connections per instance (PG_POOL_SIZE). */
  poolSize?: number;
  /** Longest a lookup query may run before the server cancels it (PG_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
  /** Longest a request waits for a connection before giving up (PG_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  log?: (message: string) => void;
}

// Migrations and data-set loads may run far longer than a lookup: their statements are exempt from
// statement_timeout and get this client-side bound instead of the pool's query_timeout.
const MAINTENANCE_TIMEOUT_MS = 60 * 60 * 1000;
/** Rows fetched at a time when a scan streams the data set (scanDataSet). */
const SCAN_BATCH = 5000;
const maintenance = (client: pg.PoolClient, text: string, values?: unknown[]) =>
  // query_timeout per query is read by pg's Client but missing from its QueryConfig type.
  client.query({ text, values, query_timeout: MAINTENANCE_TIMEOUT_MS } as pg.QueryConfig);

/** Applies the numbered migrations (NNN-name.sql) the database has not seen, tracked in schema_migrations. */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await maintenance(client, 'SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{3}-.+\.sql$/.test(f))
      .sort();
    const applied: string[] = [];
    for (const file of files) {
      const version = Number(file.slice(0, 3));
      if (done.has(version)) continue;
      await client.query('BEGIN');
      try {
        await maintenance(client, readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(file);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.query('RESET statement_timeout').catch(() => {});
    client.release();
  }
}

// SQLSTATE classes and client errors that mean "the database cannot answer now", not "the query is wrong".
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300', '53400']);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection refused/i;

export function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code))
  )
    return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

/** A connection to a database on this machine: a loopback address, or a Unix socket (a path). */
export function isLocalDatabase(host: string | undefined): boolean {
  if (!host || host.startsWith('/')) return true;
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Background work yields the CPU to the lookups (worker-thread.ts, yieldToLookups: nice 10 for the import
 * command, the index build, the desk's staging and publishing). With PostgreSQL most of an import's work runs
 * in the database backend, not in the thread that asked for it: a backend on this machine gets the priority of
 * the thread whose connection it serves (the pool's `connect`, before that thread's first query). Only threads
 * that lowered their priority change anything (the server's own pool keeps its backends as they are), and only
 * where this process may (root, or the database's own user); elsewhere, or with the database on another
 * machine, nothing changes. Measured: lookups' p99 during a 1M-row replace with PostgreSQL on the same 2 cores
 * (docs/benchmarks).
 */
function backendYieldsWithThisThread(client: pg.PoolClient): void {
  const nice = threadNice();
  // The backend's process id, as the server sent it at the start of the session (BackendKeyData).
  const { processID, host } = client as unknown as { processID?: number; host?: string };
  if (nice <= 0 || !processID || !isLocalDatabase(host)) return;
  try {
    setPriority(processID, nice);
  } catch {
    // not permitted here: the backend keeps its priority
    return;
  }
  sessionYields(processID, nice);
}

/** This thread's nice value (worker-thread.ts yieldToLookups lowers it); 0 when it cannot be read. */
function threadNice(): number {
  try {
    return getPriority();
  } catch {
    return 0;
  }
}

/**
 * The session settings of a background thread's connections to a database on this machine: no parallel workers.
 * A parallel worker is a backend of its own, started by the postmaster at its priority and in a session of its
 * own, so it would not yield with the backend it helps. Measured: an import's index builds (swapIn) ran two at
 * full priority, and the lookups' p99 rose to 150–236 ms for the seconds they ran. So such a backend works alone
 * (an import's index builds take longer; the lookups keep the CPU). Sent at connection start (`options`).
 */
function backgroundSessionOptions(connectionString: string): string | undefined {
  let host: string | undefined;
  try {
    const url = new URL(connectionString);
    host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname);
  } catch {
    return undefined; // not a URL (key=value form): left as it is
  }
  if (threadNice() <= 0 || !isLocalDatabase(host)) return undefined;
  return '-c max_parallel_maintenance_workers=0 -c max_parallel_workers_per_gather=0';
}

/**
 * With the kernel's autogroup scheduling on (/proc/sys/kernel/sched_autogroup_enabled; Linux's default in many
 * distributions, on this machine too), CPU time is shared between sessions first, and a nice value counts only
 * against the other processes of its own session. PostgreSQL starts every backend in a session of its own
 * (setsid), so the backend's nice value alone changed nothing against the server's threads: measured, its writes
 * during a replace still took half the CPU (the serving threads waited for one 50 % of the time instead of 33 %).
 * The backend's session therefore gets the same nice value, when the backend is the only process in it (a session
 * shared with anything else is left alone). Not permitted, or no autogroups: nothing changes.
 */
function sessionYields(pid: number, nice: number): void {
  try {
    const group = readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ')[0];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
      let other: string;
      try {
        other = readFileSync(`/proc/${entry}/autogroup`, 'utf8').split(' ')[0];
      } catch {
        continue; // gone meanwhile, or not ours to read
      }
      if (other === group) return;
    }
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // no autogroups here, or not permitted: the session keeps its share
  }
}

/** Numbered query parameters ($1, $2…) collected as the SQL is built. */
class Parameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const offersMode = (p: Parameters, deliveryMode: number) =>
  `EXISTS (SELECT 1 FROM head_office_delivery_modes m WHERE m.head_office_code = h.code AND m.delivery_mode = ${p.add(deliveryMode)})`;

// The big tables are loaded into a fresh table without indexes, indexed once, then swapped in by name in the same
// transaction: PostgreSQL's "Populating a Database" advice (building an index over loaded rows beats updating it
// row by row), and the replaced rows leave no dead tuples behind. Readers wait only for the swap itself.
const REBUILT_TABLES = ['bank_branches', 'agents'] as const;
/** Every table readDataSet reads (the served data set and its version). */
const SERVED_TABLES = [
  'data_version',
  'receiving_countries',
  'delivery_modes',
  'states',
  'cities',
  'head_offices',
  'head_office_delivery_modes',
  'head_office_banks',
  'bank_branches',
  'agents',
  'data_sources',
];
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

export class PgStore implements LookupStore {
  readonly engine = 'postgres' as const;

  private constructor(
    readonly pool: pg.Pool,
    readonly source: StoreSource,
  ) {}

  /** A pool on the database; the caller migrates (openStore, `npm run migrate`). */
  static open(options: PgStoreOptions): PgStore {
    const statementTimeoutMs = options.statementTimeoutMs ?? 5000;
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      statement_timeout: statementTimeoutMs,
      // The server cancels a slow query at statement_timeout; this client-side bound also ends a request
      // whose connection went silent (a cut network), so no request hangs.
      query_timeout: statementTimeoutMs + 2000,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
      idleTimeoutMillis: 30_000,
      application_name: 'receiving-partner-lookup',
      options: backgroundSessionOptions(options.connectionString),
    });
    // An idle connection that breaks (database restart, network cut) emits 'error' on the pool; unhandled it
    // would crash the process. The pool drops that connection and opens a fresh one on the next query.
    pool.on('error', (error) => options.log?.(`PostgreSQL connection lost: ${error.message}`));
    pool.on('connect', (client) => backendYieldsWithThisThread(client));
    return new PgStore(pool, { engine: 'postgres', connectionString: options.connectionString });
  }

  async migrate(): Promise<string[]> {
    return this.guard(() => migrate(this.pool));
  }

  /** Runs a store call; a database that cannot answer becomes StoreUnavailableError (503), anything else stays. */
  private async guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUnavailable(error))
        throw new StoreUnavailableError(`PostgreSQL unavailable: ${(error as Error).message}`, 5, { cause: error });
      throw error;
    }
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.guard(async () => (await this.pool.query<R>(sql, params)).rows);
  }

  async dataVersion(): Promise<string> {
    return (await this.query<{ version: string }>('SELECT version::text FROM data_version'))[0]?.version ?? '';
  }

  async hasData(): Promise<boolean> {
    return (await this.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM head_offices) AS present'))[0].present;
  }

  /**
   * One transaction: readers keep seeing the old data set (MVCC) until the commit, then the new one. The
   * version row is locked first, so two imports run one after the other rather than interleave.
   */
  async replaceDataSet(dataSet: DataSet, options: ReplaceOptions = {}): Promise<boolean> {
    const importedAt = new Date().toISOString();
    return this.guard(async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        // A large load may take longer than a lookup is allowed to.
        await client.query('SET LOCAL statement_timeout = 0');
        await client.query("SET LOCAL maintenance_work_mem = '256MB'");
        // Locked until the commit: a replace committed by anyone after this check waits for ours, or we for it.
        const served = (await maintenance(client, 'SELECT version::text AS version FROM data_version FOR UPDATE'))
          .rows[0].version as string;
        if (options.expectedVersion !== undefined && served !== options.expectedVersion) {
          throw new DataSetChangedError(options.expectedVersion, served);
        }
        for (const table of [
          'receiving_countries',
          'delivery_modes',
          'states',
          'cities',
          'head_offices',
          'head_office_delivery_modes',
          'head_office_banks',
          'data_sources',
        ]) {
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
          await client.query(numberedParameters(PUBLISHING_SQL.record), [
            publishing.changeId,
            new Date().toISOString(),
          ]);
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
    });
  }

  async referenceData(): Promise<ReferenceData> {
    const countries = await this.query<{
      code: string;
      name: string;
      currency: string;
      deliveryModes: number[] | null;
    }>(
      `SELECT c.code, c.name, c.currency,
         (SELECT array_agg(DISTINCT m.delivery_mode ORDER BY m.delivery_mode) FROM head_offices h
            JOIN head_office_delivery_modes m ON m.head_office_code = h.code WHERE h.country = c.code) AS "deliveryModes"
       FROM receiving_countries c ORDER BY c.code`,
    );
    return {
      countries: countries.map((c) => ({ ...c, deliveryModes: c.deliveryModes ?? [] })),
      deliveryModes: await this.query('SELECT value, name FROM delivery_modes ORDER BY value'),
      states: await this.query('SELECT country, code, name FROM states ORDER BY country, name'),
    };
  }

  async cities(receivingCountry: string, state: string): Promise<City[]> {
    return this.query('SELECT name, state FROM cities WHERE country = $1 AND state = $2 ORDER BY name', [
      receivingCountry,
      state,
    ]);
  }

  async payoutNetworks(receivingCountry: string, deliveryMode: number): Promise<PayoutNetwork[]> {
    const p = new Parameters();
    const rows = await this.query<HeadOfficeNetworkRow>(
      `SELECT h.code, h.name, h.network_name, h.payout_type FROM head_offices h
       WHERE h.country = ${p.add(receivingCountry)} AND ${offersMode(p, deliveryMode)} ORDER BY h.network_name, h.code`,
      p.values,
    );
    return rows.map((row) => toPayoutNetwork(row, receivingCountry, deliveryMode));
  }

  async dataStatus(): Promise<DataStatus> {
    const rows = await this.query<{
      kind: string;
      file: string;
      sha256: string;
      rows: number;
      importedAt: string;
      countries: string;
    }>('SELECT kind, file, sha256, rows, imported_at AS "importedAt", countries FROM data_sources ORDER BY kind, file');
    return { sources: rows.map((r) => ({ ...r, countries: r.countries.split(' ').filter(Boolean) })) };
  }

  /**
   * One REPEATABLE READ transaction, so one snapshot for every table and the version. The tables are locked
   * (ACCESS SHARE) before the snapshot is taken: replaceDataSet swaps freshly built tables in by name, and a
   * snapshot older than that swap would find the new tables empty. The lock makes a swap wait for this read,
   * or this read for the swap's commit.
   */
  async readDataSet(): Promise<{ dataSet: DataSet; version: string }> {
    return this.readInSnapshot();
  }

  /**
   * readDataSet's one transaction. With `visit`, the rows are not gathered but handed over as they arrive, a few
   * thousand at a time through a cursor (the search index's scan: a million rows never all in memory at once).
   */
  private async readInSnapshot(visit?: DataSetVisitor): Promise<{ dataSet: DataSet; version: string }> {
    return this.guard(async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        // An export of a million rows may take longer than a lookup is allowed to.
        await client.query('SET LOCAL statement_timeout = 0');
        await maintenance(client, `LOCK TABLE ${SERVED_TABLES.join(', ')} IN ACCESS SHARE MODE`);
        const all = async <R>(sql: string) => (await maintenance(client, sql)).rows as R[];
        const version =
          (await all<{ version: string }>('SELECT version::text AS version FROM data_version'))[0]?.version ?? '';
        const officeModes = new Map<string, number[]>();
        for (const m of await all<{ head_office_code: string; delivery_mode: number }>(
          'SELECT * FROM head_office_delivery_modes ORDER BY head_office_code, delivery_mode',
        )) {
          officeModes.set(m.head_office_code, [...(officeModes.get(m.head_office_code) ?? []), m.delivery_mode]);
        }
        const officeBanks = new Map<string, string[]>();
        for (const b of await all<{ head_office_code: string; bank_code: string }>(
          'SELECT head_office_code, bank_code FROM head_office_banks ORDER BY head_office_code, position',
        )) {
          officeBanks.set(b.head_office_code, [...(officeBanks.get(b.head_office_code) ?? []), b.bank_code]);
        }
        const offices = await all<{
          code: string;
          country: string;
          name: string;
          networkName: string;
          payoutType: PayoutType;
          demoLocations: number;
        }>(
          `SELECT code, country, name, network_name AS "networkName", payout_type AS "payoutType", demo_locations AS "demoLocations"
           FROM head_offices ORDER BY position`,
        );
        const sources = await all<{
          kind: string;
          file: string;
          sha256: string;
          rows: number;
          importedAt: string;
          countries: string;
        }>(
          'SELECT kind, file, sha256, rows, imported_at AS "importedAt", countries FROM data_sources ORDER BY kind, file',
        );
        const dataSet: DataSet = {
          countries: await all('SELECT code, name, currency FROM receiving_countries ORDER BY code'),
          deliveryModes: await all('SELECT value, name FROM delivery_modes ORDER BY value'),
          states: await all('SELECT country, code, name FROM states ORDER BY country, code'),
          cities: await all('SELECT country, state, name FROM cities ORDER BY country, state, name'),
          headOffices: offices.map((h) => ({
            ...h,
            deliveryModes: officeModes.get(h.code) ?? [],
            bankCodes: officeBanks.get(h.code) ?? [],
          })),
          branches: [],
          agents: [],
          sources: sources.map((r) => ({ ...r, countries: r.countries.split(' ').filter(Boolean) })),
        };
        const branches = `SELECT ${selectColumns(BRANCH_TABLE)} FROM ${BRANCH_TABLE.table} ORDER BY id`;
        const agents = `SELECT ${selectColumns(AGENT_TABLE)} FROM ${AGENT_TABLE.table} ORDER BY id`;
        if (visit) {
          visit.reference(dataSet);
          const each = async <R>(sql: string, row: (r: R) => void) => {
            await maintenance(client, `DECLARE scan NO SCROLL CURSOR FOR ${sql}`);
            for (let batch = await all<R>(`FETCH ${SCAN_BATCH} FROM scan`); batch.length > 0;) {
              for (const r of batch) row(r);
              batch = batch.length < SCAN_BATCH ? [] : await all<R>(`FETCH ${SCAN_BATCH} FROM scan`);
            }
            await maintenance(client, 'CLOSE scan');
          };
          await each<BranchRow>(branches, (r) => visit.branch(r));
          await each<AgentRow>(agents, (r) => visit.agent(r));
        } else {
          dataSet.branches = await all(branches);
          dataSet.agents = await all(agents);
        }
        await client.query('COMMIT');
        return { dataSet, version };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    });
  }

  /** Hands the data set over row by row as it is read (one snapshot, as readDataSet). */
  async scanDataSet(visit: DataSetVisitor): Promise<string> {
    return (await this.readInSnapshot(visit)).version;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
