import pg from 'pg';
import { type City, type PayoutNetwork, type PayoutType } from '../../../contract';
import type { AgentRow, BranchRow, DataSet, DataSetSource, DataSetVisitor } from '../../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, selectColumns } from '../../domain/kind-columns';
import {
  StoreUnavailableError,
  type DataStatus,
  type LookupStore,
  type ReplaceOptions,
  type ReferenceData,
  toPayoutNetwork,
  type HeadOfficeNetworkRow,
  type StoreSource,
  SERVED_TABLES,
} from '../store';
import { backendYieldsWithThisThread, backgroundSessionOptions } from './backend-priority';
import { replaceDataSet } from './load';
import { maintenance, migrate } from './migrate';

// The PostgreSQL store: the same questions as the SQLite store (sqlite/sqlite-store.ts) answered row for row
// alike (the searches are answered by the in-memory index, src/server/search, from either store's rows). Schema and the
// reasons it differs from SQLite's:
// migrations/001-schema.sql.

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

/** Rows fetched at a time when a scan streams the data set (scanDataSet). */
const SCAN_BATCH = 5000;

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

/** Every table readDataSet reads (the served data set and its version). */

/** The data set's files as data_sources keeps them: their countries space-separated. */
const SOURCES_SQL =
  'SELECT kind, file, sha256, rows, imported_at AS "importedAt", countries FROM data_sources ORDER BY kind, file';
type SourceRow = Required<Omit<DataSetSource, 'countries'>> & { countries: string };
const sourcesOf = (rows: SourceRow[]): DataStatus['sources'] =>
  rows.map((r) => ({ ...r, countries: r.countries.split(' ').filter(Boolean) }));

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
    return this.guard(() => replaceDataSet(this.pool, dataSet, options, importedAt));
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
    return { sources: sourcesOf(await this.query<SourceRow>(SOURCES_SQL)) };
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
        await maintenance(client, `LOCK TABLE ${['data_version', ...SERVED_TABLES].join(', ')} IN ACCESS SHARE MODE`);
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
        const sources = await all<SourceRow>(SOURCES_SQL);
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
          sources: sourcesOf(sources),
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
