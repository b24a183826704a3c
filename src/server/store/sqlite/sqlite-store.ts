import Database from 'better-sqlite3';
import { migrate } from './migrate';
import { replaceDataSet } from './load';
import { type City, type PayoutNetwork, type PayoutType } from '../../../contract';
import type { AgentRow, BranchRow, DataSet, DataSetVisitor } from '../../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, selectColumns } from '../../domain/kind-columns';
import {
  type DataStatus,
  type LookupStore,
  type ReplaceOptions,
  type ReferenceData,
  type StoreSource,
  toPayoutNetwork,
  type HeadOfficeNetworkRow,
} from '../store';

const OFFERS_MODE = `EXISTS (SELECT 1 FROM head_office_delivery_modes m WHERE m.head_office_code = h.code AND m.delivery_mode = @deliveryMode)`;

export class SqliteStore implements LookupStore {
  readonly engine = 'sqlite' as const;
  get source(): StoreSource | null {
    return this.db.memory ? null : { engine: 'sqlite', file: this.db.name };
  }
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(readonly db: Database.Database) {}

  /** Opens (creating when absent) the database file and brings its schema up to date. */
  static open(file: string, options: { readonly?: boolean } = {}): SqliteStore {
    const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    db.pragma('busy_timeout = 5000');
    if (!options.readonly) {
      // WAL: readers keep reading the last committed data set while an import writes the next one.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db);
    }
    // No memory map and SQLite's default page cache: the searches are answered from the in-memory index, and
    // this connection reads only the small tables (and, in the index builder's own connection, each row once).
    return new SqliteStore(db);
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs the reads of one answer (counts and rows) in one read transaction: in WAL mode that is one
   * snapshot, so an import committed between two statements cannot give a total of the old data set with
   * rows of the new.
   */
  private snapshot<T>(read: () => T): T {
    return this.db.transaction(read)();
  }

  async dataVersion(): Promise<string> {
    return this.currentVersion();
  }

  private currentVersion(): string {
    return String((this.prepare('SELECT version FROM data_version').get() as { version: number }).version);
  }

  async hasData(): Promise<boolean> {
    return (this.prepare('SELECT count(*) AS n FROM head_offices').get() as { n: number }).n > 0;
  }

  async replaceDataSet(dataSet: DataSet, options: ReplaceOptions = {}): Promise<boolean> {
    return replaceDataSet(this.db, dataSet, options, () => this.currentVersion());
  }

  async referenceData(): Promise<ReferenceData> {
    const countries = this.prepare(
      `SELECT c.code, c.name, c.currency,
         (SELECT group_concat(delivery_mode, ',') FROM (SELECT DISTINCT m.delivery_mode FROM head_offices h
            JOIN head_office_delivery_modes m ON m.head_office_code = h.code
            WHERE h.country = c.code ORDER BY m.delivery_mode)) AS modes
       FROM receiving_countries c ORDER BY c.code`,
    ).all() as { code: string; name: string; currency: string; modes: string | null }[];
    return {
      countries: countries.map(({ modes, ...c }) => ({
        ...c,
        deliveryModes: modes ? modes.split(',').map(Number) : [],
      })),
      deliveryModes: this.prepare(
        'SELECT value, name FROM delivery_modes ORDER BY value',
      ).all() as ReferenceData['deliveryModes'],
      states: this.prepare(
        'SELECT country, code, name FROM states ORDER BY country, name',
      ).all() as ReferenceData['states'],
    };
  }

  async cities(receivingCountry: string, state: string): Promise<City[]> {
    return this.prepare('SELECT name, state FROM cities WHERE country = ? AND state = ? ORDER BY name').all(
      receivingCountry,
      state,
    ) as City[];
  }

  async payoutNetworks(receivingCountry: string, deliveryMode: number): Promise<PayoutNetwork[]> {
    const rows = this.prepare(
      `SELECT h.code, h.name, h.network_name, h.payout_type FROM head_offices h
       WHERE h.country = @country AND ${OFFERS_MODE} ORDER BY h.network_name, h.code`,
    ).all({ country: receivingCountry, deliveryMode }) as HeadOfficeNetworkRow[];
    return rows.map((row) => toPayoutNetwork(row, receivingCountry, deliveryMode));
  }

  async dataStatus(): Promise<DataStatus> {
    return this.sources();
  }

  private sources(): DataStatus {
    const rows = this.prepare(
      'SELECT kind, file, sha256, rows, imported_at, countries FROM data_sources ORDER BY kind, file',
    ).all() as {
      kind: string;
      file: string;
      sha256: string;
      rows: number;
      imported_at: string;
      countries: string;
    }[];
    return {
      sources: rows.map(({ imported_at, countries, ...s }) => ({
        ...s,
        countries: countries.split(' ').filter(Boolean),
        importedAt: imported_at,
      })),
    };
  }

  async readDataSet(): Promise<{ dataSet: DataSet; version: string }> {
    // One read transaction (in WAL one snapshot): an import another process commits meanwhile cannot give a
    // data set mixing its tables with the old ones, nor a version that does not belong to the rows.
    return this.snapshot(() => ({ version: this.currentVersion(), dataSet: this.readAll() }));
  }

  /** Head offices in the order loaded, each with its delivery modes and (in file order) the banks it pays into. */
  private headOffices(): DataSet['headOffices'] {
    const all = <T>(sql: string) => this.db.prepare(sql).all() as T[];
    const officeModes = new Map<string, number[]>();
    for (const m of all<{ head_office_code: string; delivery_mode: number }>(
      'SELECT * FROM head_office_delivery_modes ORDER BY head_office_code, delivery_mode',
    )) {
      officeModes.set(m.head_office_code, [...(officeModes.get(m.head_office_code) ?? []), m.delivery_mode]);
    }
    // Banks in the order loaded, so an export writes routes_to_banks as the partners file listed them.
    const officeBanks = new Map<string, string[]>();
    for (const b of all<{ head_office_code: string; bank_code: string }>(
      'SELECT * FROM head_office_banks ORDER BY rowid',
    )) {
      officeBanks.set(b.head_office_code, [...(officeBanks.get(b.head_office_code) ?? []), b.bank_code]);
    }
    type Office = {
      code: string;
      country: string;
      name: string;
      network_name: string;
      payout_type: PayoutType;
      demo_locations: number;
    };
    return all<Office>('SELECT * FROM head_offices ORDER BY rowid').map((h) => ({
      code: h.code,
      country: h.country,
      name: h.name,
      networkName: h.network_name,
      payoutType: h.payout_type,
      deliveryModes: officeModes.get(h.code) ?? [],
      bankCodes: officeBanks.get(h.code) ?? [],
      demoLocations: h.demo_locations,
    }));
  }

  private readAll(): DataSet {
    const all = <T>(sql: string) => this.db.prepare(sql).all() as T[];
    return {
      countries: all('SELECT code, name, currency FROM receiving_countries ORDER BY code'),
      deliveryModes: all('SELECT value, name FROM delivery_modes ORDER BY value'),
      states: all('SELECT country, code, name FROM states ORDER BY country, code'),
      cities: all('SELECT country, state, name FROM cities ORDER BY country, state, name'),
      headOffices: this.headOffices(),
      branches: all<BranchRow>(`SELECT ${selectColumns(BRANCH_TABLE)} FROM ${BRANCH_TABLE.table} ORDER BY id`),
      agents: all<AgentRow>(`SELECT ${selectColumns(AGENT_TABLE)} FROM ${AGENT_TABLE.table} ORDER BY id`),
      sources: this.sources().sources,
    };
  }

  async scanDataSet(visit: DataSetVisitor): Promise<string> {
    // One read transaction: one snapshot, however long the scan takes (WAL: imports commit meanwhile).
    return this.snapshot(() => {
      const version = String(this.db.prepare('SELECT version FROM data_version').pluck().get());
      const all = <T>(sql: string) => this.db.prepare(sql).all() as T[];
      visit.reference({
        countries: all('SELECT code, name, currency FROM receiving_countries ORDER BY code'),
        states: all('SELECT country, code, name FROM states ORDER BY country, code'),
        headOffices: this.headOffices(),
      });
      const branches = this.db.prepare(
        `SELECT ${selectColumns(BRANCH_TABLE, { published: false })} FROM ${BRANCH_TABLE.table} ORDER BY id`,
      );
      for (const row of branches.iterate()) visit.branch(row as BranchRow);
      const agents = this.db.prepare(
        `SELECT ${selectColumns(AGENT_TABLE, { published: false })} FROM ${AGENT_TABLE.table} ORDER BY id`,
      );
      for (const row of agents.iterate()) visit.agent(row as AgentRow);
      return version;
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
