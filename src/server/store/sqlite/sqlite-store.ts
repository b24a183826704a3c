import { readFileSync, readdirSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { REPO_ROOT } from '../../paths';
import {
  type City,
  type PayoutNetwork,
  type PayoutType,
} from '../../../contract';
import type { AgentRow, BranchRow, DataSet, DataSetVisitor } from '../../domain/data-set';
import {
  DataSetChangedError,
  type DataStatus,
  type LookupStore,
  type ReplaceOptions,
  type ReferenceData,
  type StoreSource,
  toPayoutNetwork,
  type HeadOfficeNetworkRow,
} from '../store';

// Read from the source tree also when compiled: SQL is not bundled (paths.ts).
const MIGRATIONS_DIR = join(REPO_ROOT, 'src', 'server', 'store', 'sqlite');

/** Rows written between two steps of a load (a power of two, less one: a mask). */
const WRITE_STEP_ROWS = 2 ** 14 - 1;
/** Page cache of a connection while it writes a load: a 300,000-branch load is about 200 MB. */
const LOAD_CACHE_KIB = 1024 * 1024;
/** SQLite's default. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;

/** Applies the numbered migrations (NNN-name.sql) this database has not seen, tracked in user_version. */
export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}-.+\.sql$/.test(f))
    .sort();
  let applied = 0;
  for (const file of files) {
    const version = Number(file.slice(0, 3));
    if (version <= current) continue;
    db.transaction(() => {
      db.exec(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
      db.pragma(`user_version = ${version}`);
    })();
    applied++;
  }
  return applied;
}

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
    if (!options.readonly) {
      // WAL: readers keep reading the last committed data set while an import writes the next one.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db);
    }
    db.pragma('busy_timeout = 5000');
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
    const db = this.db;
    const { commitWhen } = options;
    const cacheSize = db.pragma('cache_size', { simple: true }) as number;
    // The checkpoint is run after the commit (and after onCommit), not inside it.
    db.pragma('wal_autocheckpoint = 0');
    // A load's pages stay in memory until the commit instead of spilling to the WAL on the way.
    db.pragma(`cache_size = -${LOAD_CACHE_KIB}`);
    let committed = false;
    try {
      db.exec('BEGIN IMMEDIATE');
      // Under the write lock: no other writer can commit between this check and our commit.
      const served = this.currentVersion();
      if (options.expectedVersion !== undefined && served !== options.expectedVersion) {
        throw new DataSetChangedError(options.expectedVersion, served);
      }
      for (const _step of this.writeDataSet(dataSet, options.onProgress)) {
        if (commitWhen) await setImmediate();
      }
      if (commitWhen && !(await commitWhen)) return false;
      db.exec('COMMIT');
      committed = true;
    } finally {
      if (!committed && db.inTransaction) db.exec('ROLLBACK');
      db.pragma(`cache_size = ${cacheSize}`);
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    }
    options.onCommit?.();
    db.pragma('wal_checkpoint(PASSIVE)');
    db.pragma('optimize');
    return true;
  }

  /**
   * Writes the whole data set inside the caller's transaction, in steps (a chunk of rows, an index): the
   * caller may yield between them. Large loads are faster into unindexed tables: the indexes (as the
   * migrations defined them) are dropped and built again at the end, in the same transaction, so readers
   * never see the tables without them.
   */
  private *writeDataSet(dataSet: DataSet, onProgress: (done: number, total: number) => void = () => {}): Generator<void> {
    const db = this.db;
    const importedAt = new Date().toISOString();
    const indexes = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('bank_branches', 'agents')")
      .all() as { name: string; sql: string }[];
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
    for (const table of [
      'receiving_countries', 'delivery_modes', 'states', 'cities', 'head_offices',
      'head_office_delivery_modes', 'head_office_banks', 'bank_branches', 'agents', 'data_sources',
    ]) {
      db.exec(`DELETE FROM ${table}`);
    }
    const insertCountry = db.prepare('INSERT INTO receiving_countries VALUES (?, ?, ?)');
    for (const c of dataSet.countries) insertCountry.run(c.code, c.name, c.currency);
    const insertMode = db.prepare('INSERT INTO delivery_modes VALUES (?, ?)');
    for (const m of dataSet.deliveryModes) insertMode.run(m.value, m.name);
    const insertState = db.prepare('INSERT INTO states VALUES (?, ?, ?)');
    for (const s of dataSet.states) insertState.run(s.country, s.code, s.name);
    const insertCity = db.prepare('INSERT OR IGNORE INTO cities VALUES (?, ?, ?)');
    for (const c of dataSet.cities) insertCity.run(c.country, c.state, c.name);
    const insertOffice = db.prepare('INSERT INTO head_offices VALUES (?, ?, ?, ?, ?, ?)');
    const insertOfficeMode = db.prepare('INSERT INTO head_office_delivery_modes VALUES (?, ?)');
    const insertOfficeBank = db.prepare('INSERT INTO head_office_banks VALUES (?, ?)');
    for (const h of dataSet.headOffices) {
      insertOffice.run(h.code, h.country, h.name, h.networkName, h.payoutType, h.demoLocations);
      for (const m of h.deliveryModes) insertOfficeMode.run(h.code, m);
      for (const b of h.bankCodes) insertOfficeBank.run(h.code, b);
    }
    const total = dataSet.branches.length + dataSet.agents.length;
    let done = 0;
    const insertBranch = db.prepare(
      `INSERT INTO bank_branches (country, bank_code, bank_name, routing_number, branch_name, address_line1,
         address_line2, city, district, state, state_published)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const b of dataSet.branches) {
      insertBranch.run(
        b.country, b.bankCode, b.bankName, b.routingNumber, b.branchName, b.addressLine1, b.addressLine2,
        b.city, b.district, b.state, b.publishedState === undefined ? b.state : b.publishedState,
      );
      if ((++done & WRITE_STEP_ROWS) === 0) {
        onProgress(done, total);
        yield;
      }
    }
    const insertAgent = db.prepare(
      `INSERT INTO agents (agent_code, head_office_code, country, agent_name, address_line1, address_line2, city,
         state, state_published, phone_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const a of dataSet.agents) {
      insertAgent.run(
        a.agentCode, a.headOfficeCode, a.country, a.agentName, a.addressLine1, a.addressLine2, a.city, a.state,
        a.publishedState ?? a.state, a.phoneNumber,
      );
      if ((++done & WRITE_STEP_ROWS) === 0) {
        onProgress(done, total);
        yield;
      }
    }
    onProgress(total, total);
    const insertSource = db.prepare('INSERT INTO data_sources (kind, file, sha256, rows, imported_at, countries) VALUES (?, ?, ?, ?, ?, ?)');
    for (const s of dataSet.sources) {
      insertSource.run(s.kind, s.file, s.sha256, s.rows, s.importedAt ?? importedAt, (s.countries ?? []).join(' '));
    }
    for (const index of indexes) {
      yield;
      db.exec(index.sql);
    }
    db.exec('UPDATE data_version SET version = version + 1');
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
      countries: countries.map(({ modes, ...c }) => ({ ...c, deliveryModes: modes ? modes.split(',').map(Number) : [] })),
      deliveryModes: this.prepare('SELECT value, name FROM delivery_modes ORDER BY value').all() as ReferenceData['deliveryModes'],
      states: this.prepare('SELECT country, code, name FROM states ORDER BY country, name').all() as ReferenceData['states'],
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
    const rows = this.prepare('SELECT kind, file, sha256, rows, imported_at, countries FROM data_sources ORDER BY kind, file').all() as {
      kind: string; file: string; sha256: string; rows: number; imported_at: string; countries: string;
    }[];
    return {
      sources: rows.map(({ imported_at, countries, ...s }) => ({ ...s, countries: countries.split(' ').filter(Boolean), importedAt: imported_at })),
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
    for (const m of all<{ head_office_code: string; delivery_mode: number }>('SELECT * FROM head_office_delivery_modes ORDER BY head_office_code, delivery_mode')) {
      officeModes.set(m.head_office_code, [...(officeModes.get(m.head_office_code) ?? []), m.delivery_mode]);
    }
    // Banks in the order loaded, so an export writes routes_to_banks as the partners file listed them.
    const officeBanks = new Map<string, string[]>();
    for (const b of all<{ head_office_code: string; bank_code: string }>('SELECT * FROM head_office_banks ORDER BY rowid')) {
      officeBanks.set(b.head_office_code, [...(officeBanks.get(b.head_office_code) ?? []), b.bank_code]);
    }
    type Office = { code: string; country: string; name: string; network_name: string; payout_type: PayoutType; demo_locations: number };
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
    type Branch = Record<'country' | 'bank_code' | 'bank_name' | 'branch_name', string> &
      Record<'routing_number' | 'address_line1' | 'address_line2' | 'city' | 'district' | 'state' | 'state_published', string | null>;
    type AgentRow = Record<'agent_code' | 'head_office_code' | 'country' | 'agent_name' | 'address_line1' | 'address_line2' | 'city' | 'state' | 'state_published' | 'phone_number', string>;
    return {
      countries: all('SELECT code, name, currency FROM receiving_countries ORDER BY code'),
      deliveryModes: all('SELECT value, name FROM delivery_modes ORDER BY value'),
      states: all('SELECT country, code, name FROM states ORDER BY country, code'),
      cities: all('SELECT country, state, name FROM cities ORDER BY country, state, name'),
      headOffices: this.headOffices(),
      branches: all<Branch>(
        `SELECT country, bank_code, bank_name, routing_number, branch_name, address_line1, address_line2, city, district, state,
           state_published FROM bank_branches ORDER BY id`,
      ).map((b) => ({
        country: b.country,
        bankCode: b.bank_code,
        bankName: b.bank_name,
        routingNumber: b.routing_number,
        branchName: b.branch_name,
        addressLine1: b.address_line1,
        addressLine2: b.address_line2,
        city: b.city,
        district: b.district,
        state: b.state,
        publishedState: b.state_published,
      })),
      agents: all<AgentRow>('SELECT * FROM agents ORDER BY id').map((a) => ({
        agentCode: a.agent_code,
        headOfficeCode: a.head_office_code,
        country: a.country,
        agentName: a.agent_name,
        addressLine1: a.address_line1,
        addressLine2: a.address_line2,
        city: a.city,
        state: a.state,
        publishedState: a.state_published,
        phoneNumber: a.phone_number,
      })),
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
        `SELECT country, bank_code AS bankCode, bank_name AS bankName, routing_number AS routingNumber, branch_name AS branchName,
           address_line1 AS addressLine1, address_line2 AS addressLine2, city, district, state FROM bank_branches ORDER BY id`,
      );
      for (const row of branches.iterate()) visit.branch(row as BranchRow);
      const agents = this.db.prepare(
        `SELECT agent_code AS agentCode, head_office_code AS headOfficeCode, country, agent_name AS agentName, address_line1 AS addressLine1,
           address_line2 AS addressLine2, city, state, phone_number AS phoneNumber FROM agents ORDER BY id`,
      );
      for (const row of agents.iterate()) visit.agent(row as AgentRow);
      return version;
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
