import { readFileSync, readdirSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import {
  ACCOUNT_TRANSFER_TO_OTHER_BANK,
  type Agent,
  type BankBranch,
  type City,
  type PayoutNetwork,
  type PayoutType,
} from '../../../contract';
import { deliveryModeCodeOf } from '../../seed/delivery-modes';
import type { AgentRow, BranchRow, DataSet, DataSetVisitor } from '../../seed/data-set';
import {
  DataSetChangedError,
  pageOf,
  splitBankBranchSearch,
  type AgentSearch,
  type BranchSearch,
  type DataStatus,
  type LookupStore,
  type ReplaceOptions,
  type ReferenceData,
  type StoreSource,
  toPayoutNetwork,
  type HeadOfficeNetworkRow,
} from '../store';

const MIGRATIONS_DIR = import.meta.dirname;

/** Fills the trigram indexes from the rows of a load: the statements that end 005-trigram-indexes-fill.sql. */
const TRIGRAM_INDEXES_FILL = (() => {
  const migration = readFileSync(join(MIGRATIONS_DIR, '005-trigram-indexes-fill.sql'), 'utf8');
  return migration.slice(migration.indexOf('-- FILL'));
})()
  .split(';')
  .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
  .filter(Boolean);

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

/**
 * How every branch-backed answer (bank branches, and the mode-04 agent list) reads its rows: in answer order
 * along bank_branches_by_name, or, when the trigram indexes narrow the rows enough, from those rows sorted.
 */
const BRANCHES_IN_ANSWER_ORDER = {
  from: 'bank_branches b INDEXED BY bank_branches_by_name',
  narrowedFrom: 'bank_branches b NOT INDEXED',
  orderBy: 'b.bank_name, b.branch_name, b.id',
} as const;

type HeadOfficeOfBranches = { code: string; name: string; payout_type: PayoutType };

interface AgentRecord {
  head_office_code: string;
  head_office_name: string;
  agent_code: string;
  agent_name: string;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  state_name: string | null;
  phone_number: string | null;
  country: string;
  payout_type: PayoutType;
  delivery_modes: string;
  bank_code: string | null;
  bank_name: string | null;
  routing_number: string | null;
}

const toAgent = (r: AgentRecord): Agent => ({
  receivingAgentHeadOfficeCode: r.head_office_code,
  headOfficeName: r.head_office_name,
  agentCode: r.agent_code,
  agentName: r.agent_name,
  addressLine1: r.address_line1,
  addressLine2: r.address_line2,
  city: r.city,
  state: r.state,
  stateName: r.state_name,
  phoneNumber: r.phone_number,
  receivingCountry: r.country,
  payoutType: r.payout_type,
  deliveryModes: r.delivery_modes.split(',').map((m) => deliveryModeCodeOf(Number(m))),
  bankCode: r.bank_code,
  bankName: r.bank_name,
  routingNumber: r.routing_number,
});

// Delivery modes of a head office as "1,3" (sorted), for the agent record.
const HEAD_OFFICE_MODES = `(SELECT group_concat(delivery_mode, ',') FROM
  (SELECT delivery_mode FROM head_office_delivery_modes m WHERE m.head_office_code = h.code ORDER BY delivery_mode))`;

const OFFERS_MODE = `EXISTS (SELECT 1 FROM head_office_delivery_modes m WHERE m.head_office_code = h.code AND m.delivery_mode = @deliveryMode)`;

/**
 * One paged search. `scope` and `filters` together are the answer's exact semantics: `scope` what the
 * ordered index walk is limited to (country, head office banks, bank names), `filters` what it checks row by
 * row (instr() contains, codes). `narrowing` holds conditions that pick, from an index, a superset of the
 * rows the filters accept (trigram FTS, routing number), so adding them can speed a query up but never
 * changes its answer.
 */
interface PagedSearch {
  /** Names the search for the totals cache: its kind and every parameter but the page. */
  key: string;
  select: string;
  /** FROM for reading the rows in answer order along an index (few or no narrowing conditions). */
  from: string;
  /** FROM for reading only the narrowed rows (rowid look-ups), then sorting them. */
  narrowedFrom: string;
  scope: string[];
  filters: string[];
  narrowing: string[];
  orderBy: string;
  /** Wraps the page's rows (`page`) with what the answer adds per row: joins run for the page only, not for skipped rows. */
  decorate: (page: string) => string;
  params: Record<string, unknown>;
}

/**
 * How a page is read: `narrowed` reads the narrowed rows and sorts them, `walk` walks the ordered index
 * until the page is full. The store picks by cost; tests force each to compare both with the plain semantics.
 */
export type PagePlan = 'narrowed' | 'walk';
/** Reading and sorting one narrowed row costs about this many rows visited by an index walk. */
const NARROWED_ROW_COST = 4;
/** Totals kept per data version, by search: paging through an answer counts it once. */
const TOTALS_CACHE_SIZE = 10_000;
const MMAP_BYTES = 4 * 2 ** 30;
const PAGE_CACHE_KIB = 128 * 1024;

/** At most this many of a term's trigrams are asked for: a long term's first few already pick few rows. */
const MAX_QUERY_TRIGRAMS = 16;

/**
 * An FTS5 query for the rows whose text holds every trigram of `term` (005: the indexes keep no positions,
 * so not as a phrase): a superset of the rows containing `term`, which instr() narrows to exactly those.
 * Parenthesised, so that it can stand behind a column filter. Null when the term is too short for trigrams.
 */
export function trigramQuery(term: string): string | null {
  const chars = [...term];
  const trigrams = [...new Set(chars.slice(2).map((_, i) => chars.slice(i, i + 3).join('')))];
  if (trigrams.length === 0) return null;
  const step = Math.max(1, trigrams.length / MAX_QUERY_TRIGRAMS);
  const asked = Array.from({ length: Math.min(trigrams.length, MAX_QUERY_TRIGRAMS) }, (_, i) => trigrams[Math.floor(i * step)]);
  return `(${asked.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ')})`;
}

export class SqliteStore implements LookupStore {
  readonly engine = 'sqlite' as const;
  get source(): StoreSource | null {
    return this.db.memory ? null : { engine: 'sqlite', file: this.db.name };
  }
  private readonly statements = new Map<string, Database.Statement>();
  private readonly totals = new LRUCache<string, number>({ max: TOTALS_CACHE_SIZE });
  /** The data set the cached totals count: PRAGMA data_version moves when another connection commits. */
  private totalsVersion = -1;
  private readonly dataVersionPragma: Database.Statement;

  private constructor(
    readonly db: Database.Database,
    private readonly forcedPlan?: PagePlan,
  ) {
    this.dataVersionPragma = db.prepare('PRAGMA data_version').pluck();
  }

  /** Opens (creating when absent) the database file and brings its schema up to date. */
  static open(file: string, options: { readonly?: boolean; plan?: PagePlan } = {}): SqliteStore {
    const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    if (!options.readonly) {
      // WAL: readers keep reading the last committed data set while an import writes the next one.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db);
    }
    db.pragma('busy_timeout = 5000');
    // Searches at a million rows touch pages all over the file: map it into memory (reads without a copy
    // per page) and keep a larger page cache than the 2 MB default.
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    return new SqliteStore(db, options.plan);
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
    // This connection's own commit does not move its PRAGMA data_version.
    this.totals.clear();
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
      'head_office_delivery_modes', 'head_office_banks', 'bank_branches', 'branch_banks', 'branch_texts', 'agents', 'data_sources',
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
         address_line2, city, district, state, state_published, address_line1_search, address_line2_text, district_text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // The banks of the branch table (branch_banks), gathered on the way rather than by a DISTINCT scan.
    const banks = new Map<string, BranchRow>();
    // Address Line 2 and district texts, lower-cased, each stored once (branch_texts, 005).
    const texts = new Map<string, number>();
    const textId = (value: string | null) => {
      if (value === null) return null;
      const text = value.toLowerCase();
      let id = texts.get(text);
      if (id === undefined) texts.set(text, (id = texts.size + 1));
      return id;
    };
    for (const b of dataSet.branches) {
      const bankKey = `${b.country}\u0000${b.bankCode}\u0000${b.bankName}`;
      if (!banks.has(bankKey)) banks.set(bankKey, b);
      insertBranch.run(
        b.country, b.bankCode, b.bankName, b.routingNumber, b.branchName, b.addressLine1, b.addressLine2,
        b.city, b.district, b.state, b.publishedState === undefined ? b.state : b.publishedState,
        b.addressLine1?.toLowerCase() ?? null, textId(b.addressLine2), textId(b.district),
      );
      if ((++done & WRITE_STEP_ROWS) === 0) {
        onProgress(done, total);
        yield;
      }
    }
    const insertBank = db.prepare('INSERT INTO branch_banks VALUES (?, ?, ?, ?)');
    for (const b of banks.values()) insertBank.run(b.country, b.bankCode, b.bankName, b.bankName.toLowerCase());
    const insertText = db.prepare('INSERT INTO branch_texts (id, text) VALUES (?, ?)');
    for (const [text, id] of texts) insertText.run(id, text);
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
    for (const statement of TRIGRAM_INDEXES_FILL) {
      yield;
      db.exec(statement);
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

  /**
   * The agent list is ordered by head office first, and a country has a few: it is answered head office by
   * head office, each a single-table search in its index order (and a head office whose name contains the
   * search answers with all its agents, unfiltered). Totals per head office are cached like any other.
   */
  async agents(search: AgentSearch) {
    return this.snapshot(() => this.agentsPage(search));
  }

  private agentsPage(search: AgentSearch) {
    const offices = this.prepare(
      `SELECT h.code, h.name, h.payout_type FROM head_offices h WHERE h.country = @country AND ${OFFERS_MODE} ORDER BY h.code`,
    ).all({ country: search.receivingCountry, deliveryMode: search.deliveryMode }) as HeadOfficeOfBranches[];
    const queryOf = (office: HeadOfficeOfBranches) =>
      search.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK ? this.branchAgentsQuery(search, office) : this.agentQuery(search, office);
    const offset = (search.pageNumber - 1) * search.pageSize;
    const rows: AgentRecord[] = [];
    let total = 0;
    for (const office of offices) {
      const query = queryOf(office);
      const officeTotal = this.count(query.key, query, query.narrowing.length > 0);
      const skip = Math.max(0, offset - total);
      const wanted = search.pageSize - rows.length;
      if (wanted > 0 && skip < officeTotal) rows.push(...this.page<AgentRecord>(query, skip, wanted).rows);
      total += officeTotal;
    }
    return pageOf(rows.map(toAgent), total, search.pageNumber, search.pageSize);
  }

  /** One head office's agents; search is case-sensitive (instr) on head office or agent name. */
  private agentQuery(search: AgentSearch, office: HeadOfficeOfBranches): PagedSearch {
    const scope = ['a.country = @country', 'a.head_office_code = @headOffice'];
    const filters: string[] = [];
    const narrowing: string[] = [];
    if (search.state) scope.push('a.state = @state');
    let match: string | null = null;
    if (search.search && !office.name.includes(search.search)) {
      filters.push('instr(a.agent_name, @search) > 0');
      match = trigramQuery(search.search);
      if (match) narrowing.push('a.id IN (SELECT rowid FROM agents_fts WHERE agents_fts MATCH @match)');
    }
    const params = { country: search.receivingCountry, headOffice: office.code, state: search.state ?? null, search: search.search ?? null, match };
    return {
      key: `agents:${JSON.stringify(params)}`,
      select: 'a.*',
      from: 'agents a',
      narrowedFrom: 'agents a NOT INDEXED',
      scope,
      filters,
      narrowing,
      orderBy: 'a.agent_code',
      decorate: (page) => `SELECT h.code AS head_office_code, h.name AS head_office_name, a.agent_code, a.agent_name,
          a.address_line1, a.address_line2, a.city, a.state, s.name AS state_name, a.phone_number, a.country, h.payout_type,
          ${HEAD_OFFICE_MODES} AS delivery_modes, NULL AS bank_code, NULL AS bank_name, NULL AS routing_number
        FROM (${page}) a JOIN head_offices h ON h.code = a.head_office_code
        LEFT JOIN states s ON s.country = a.country AND s.code = a.state
        ORDER BY a.agent_code`,
      params,
    };
  }

  /**
   * Delivery mode 04: the agent list answers from the bank branches each mode-04 head office pays into.
   * The search follows "[Bank Name], [Branch Name]"; without a comma it is a contains on head office,
   * bank or branch name. Case-sensitive, like every agent-list search (spec §4.1).
   */
  private branchAgentsQuery(search: AgentSearch, office: HeadOfficeOfBranches): PagedSearch {
    const scope = [
      'b.country = @country',
      'b.bank_code IN (SELECT hb.bank_code FROM head_office_banks hb WHERE hb.head_office_code = @headOffice)',
    ];
    const filters: string[] = [];
    const narrowing: string[] = [];
    if (search.state) filters.push('b.state = @state');
    const parts = search.search ? splitBankBranchSearch(search.search) : null;
    const banksNamed = (param: string) => `SELECT k.bank_name FROM branch_banks k WHERE k.country = @country AND instr(k.bank_name, ${param}) > 0`;
    let match: string | null = null;
    if (parts) {
      // A bank-name contains is answered against the few bank names, then read along the name index.
      if (parts.bankName) scope.push(`b.bank_name IN (${banksNamed('@bankName')})`);
      if (parts.branchName) filters.push('instr(b.branch_name, @branchName) > 0');
      match = parts.branchName ? trigramQuery(parts.branchName) : null;
      if (match) narrowing.push('b.id IN (SELECT rowid FROM bank_branches_names_fts WHERE bank_branches_names_fts MATCH @match)');
    } else if (search.search && !office.name.includes(search.search)) {
      // (A head office whose name contains the search answers with all its branches: no filter then.)
      filters.push(`(b.bank_name IN (${banksNamed('@search')}) OR instr(b.branch_name, @search) > 0)`);
      match = trigramQuery(search.search);
      if (match) {
        narrowing.push(`b.id IN (SELECT rowid FROM bank_branches_names_fts WHERE bank_branches_names_fts MATCH @match
          UNION ALL SELECT id FROM bank_branches WHERE country = @country AND bank_name IN (${banksNamed('@search')}))`);
      }
    }
    const params = {
      country: search.receivingCountry,
      headOffice: office.code,
      headOfficeName: office.name,
      payoutType: office.payout_type,
      state: search.state ?? null,
      search: search.search ?? null,
      bankName: parts?.bankName ?? null,
      branchName: parts?.branchName ?? null,
      match,
    };
    return {
      key: `branch-agents:${JSON.stringify(params)}`,
      select: '@headOffice AS head_office_code, @headOfficeName AS head_office_name, @payoutType AS payout_type, b.*',
      ...BRANCHES_IN_ANSWER_ORDER,
      scope,
      filters,
      narrowing,
      decorate: (page) => `SELECT b.head_office_code, b.head_office_name, coalesce(b.routing_number, b.bank_code || '-' || b.id) AS agent_code,
          b.branch_name AS agent_name, b.address_line1, b.address_line2, b.city, b.state, s.name AS state_name,
          NULL AS phone_number, b.country, b.payout_type, '4' AS delivery_modes, b.bank_code, b.bank_name, b.routing_number
        FROM (${page}) b LEFT JOIN states s ON s.country = b.country AND s.code = b.state
        ORDER BY b.bank_name, b.branch_name, b.id`,
      params,
    };
  }

  async payoutNetworks(receivingCountry: string, deliveryMode: number): Promise<PayoutNetwork[]> {
    const rows = this.prepare(
      `SELECT h.code, h.name, h.network_name, h.payout_type FROM head_offices h
       WHERE h.country = @country AND ${OFFERS_MODE} ORDER BY h.network_name, h.code`,
    ).all({ country: receivingCountry, deliveryMode }) as HeadOfficeNetworkRow[];
    return rows.map((row) => toPayoutNetwork(row, receivingCountry, deliveryMode));
  }

  /**
   * Branches of the banks the head office pays into. A bank code outside those banks, or a head office that
   * is unknown or does not offer mode 04 in this country, gives an empty page (spec §7 rule 1), not an error.
   */
  async branches(search: BranchSearch) {
    return this.snapshot(() => this.branchesPage(search));
  }

  private branchesPage(search: BranchSearch) {
    const scope = [
      'b.country = @country',
      'b.bank_code IN (SELECT hb.bank_code FROM head_office_banks hb WHERE hb.head_office_code = @headOffice)',
      `EXISTS (SELECT 1 FROM head_offices h WHERE h.code = @headOffice AND h.country = @country AND ${OFFERS_MODE})`,
    ];
    const filters: string[] = [];
    const narrowing: string[] = [];
    // A bank-name contains is answered against the few bank names, then read along the name index.
    if (search.bankName) {
      scope.push('b.bank_name IN (SELECT k.bank_name FROM branch_banks k WHERE k.country = @country AND instr(k.bank_name_search, @bankName) > 0)');
    }
    if (search.bankCode) {
      // The bank named by its code, or the bank of the branch named by its routing number: only its rows are walked.
      scope.push(`b.bank_name IN (SELECT k.bank_name FROM branch_banks k WHERE k.country = @country AND (k.bank_code = @bankCode
        OR k.bank_code IN (SELECT r.bank_code FROM bank_branches r WHERE r.routing_number = @bankCode)))`);
      filters.push('(b.bank_code = @bankCode OR b.routing_number = @bankCode)');
      narrowing.push(`b.id IN (SELECT id FROM bank_branches WHERE routing_number = @bankCode
        UNION ALL SELECT id FROM bank_branches WHERE country = @country AND bank_code = @bankCode)`);
    }
    let match: string | null = null;
    if (search.branchLocation) {
      filters.push('instr(b.address_line1_search, @branchLocation) > 0');
      match = trigramQuery(search.branchLocation.toLowerCase());
      if (match) narrowing.push('b.id IN (SELECT rowid FROM bank_branches_search_fts WHERE bank_branches_search_fts MATCH @match)');
    }
    // Address Line 2 and district: the few distinct texts are searched, then the branches pointing to them.
    for (const [column, param] of [['address_line2_text', 'address'], ['district_text', 'district']] as const) {
      if (!search[param]) continue;
      const texts = `SELECT t.id FROM branch_texts t WHERE instr(t.text, @${param}) > 0`;
      filters.push(`b.${column} IN (${texts})`);
      narrowing.push(`b.id IN (SELECT r.id FROM bank_branches r WHERE r.${column} IN (${texts}))`);
    }
    const params = {
      headOffice: search.receivingAgentHeadOfficeCode,
      country: search.receivingCountry,
      deliveryMode: search.deliveryMode,
      bankName: search.bankName?.toLowerCase() ?? null,
      bankCode: search.bankCode ?? null,
      branchLocation: search.branchLocation?.toLowerCase() ?? null,
      address: search.address?.toLowerCase() ?? null,
      district: search.district?.toLowerCase() ?? null,
      match,
    };
    type Row = Record<string, string | null>;
    const { rows, total } = this.page<Row>(
      {
        key: `branches:${JSON.stringify(params)}`,
        select: 'b.id, b.bank_code, b.bank_name, b.routing_number, b.branch_name, b.address_line1, b.address_line2, b.city, b.district, b.state, b.country',
        ...BRANCHES_IN_ANSWER_ORDER,
        scope,
        filters,
        narrowing,
        decorate: (page) => `SELECT b.*, s.name AS state_name FROM (${page}) b
          LEFT JOIN states s ON s.country = b.country AND s.code = b.state ORDER BY b.bank_name, b.branch_name, b.id`,
        params,
      },
      (search.pageNumber - 1) * search.pageSize,
      search.pageSize,
    );
    const data: BankBranch[] = rows.map((r) => ({
      receivingAgentHeadOfficeCode: search.receivingAgentHeadOfficeCode,
      bankCode: r.bank_code!,
      bankName: r.bank_name!,
      routingNumber: r.routing_number,
      branchName: r.branch_name!,
      branchLocation: r.address_line1,
      address: r.address_line2,
      city: r.city,
      district: r.district,
      state: r.state,
      stateName: r.state_name,
      receivingCountry: r.country!,
    }));
    return pageOf(data, total, search.pageNumber, search.pageSize);
  }

  /** The total of a search (cached per data version) and one page of its rows, by the cheaper plan. */
  private page<Row>(search: PagedSearch, offset: number, limit: number): { rows: Row[]; total: number } {
    const narrowed = search.narrowing.length > 0;
    const total = this.count(search.key, search, narrowed);
    if (offset >= total) return { rows: [], total };
    const narrow = narrowed && (this.forcedPlan ? this.forcedPlan === 'narrowed' : this.narrowedIsCheaper(search, total, offset + limit));
    const where = [...search.scope, ...search.filters, ...(narrow ? search.narrowing : [])];
    const page = `SELECT ${search.select} FROM ${narrow ? search.narrowedFrom : search.from} WHERE ${where.join(' AND ')}
      ORDER BY ${search.orderBy} LIMIT @limit OFFSET @offset`;
    const rows = this.prepare(search.decorate(page)).all({ ...search.params, limit, offset }) as Row[];
    return { rows, total };
  }

  /**
   * A walk along the ordered index visits the scope's rows until the page is full: about (offset + page
   * size) × scope / total of them when matches are spread evenly. The narrowed plan reads and sorts all
   * `total` matches.
   */
  private narrowedIsCheaper(search: PagedSearch, total: number, rowsNeeded: number): boolean {
    const scopeTotal = this.count(`${search.key}:scope`, { ...search, filters: [] }, false);
    const walked = Math.min(scopeTotal, (rowsNeeded * scopeTotal) / total);
    return total * NARROWED_ROW_COST < walked;
  }

  /** count(*) of the search's rows, cached per data version under `key`. */
  private count(key: string, search: PagedSearch, narrowed: boolean): number {
    const version = this.dataVersionPragma.get() as number;
    if (version !== this.totalsVersion) {
      this.totals.clear();
      this.totalsVersion = version;
    }
    const cached = this.totals.get(key);
    if (cached !== undefined) return cached;
    const where = [...search.scope, ...search.filters, ...(narrowed ? search.narrowing : [])];
    const sql = `SELECT count(*) AS total FROM ${narrowed ? search.narrowedFrom : search.from} WHERE ${where.join(' AND ')}`;
    const total = (this.prepare(sql).get(search.params) as { total: number }).total;
    this.totals.set(key, total);
    return total;
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

  private readAll(): DataSet {
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
    type Branch = Record<'country' | 'bank_code' | 'bank_name' | 'branch_name', string> &
      Record<'routing_number' | 'address_line1' | 'address_line2' | 'city' | 'district' | 'state' | 'state_published', string | null>;
    type AgentRow = Record<'agent_code' | 'head_office_code' | 'country' | 'agent_name' | 'address_line1' | 'address_line2' | 'city' | 'state' | 'state_published' | 'phone_number', string>;
    return {
      countries: all('SELECT code, name, currency FROM receiving_countries ORDER BY code'),
      deliveryModes: all('SELECT value, name FROM delivery_modes ORDER BY value'),
      states: all('SELECT country, code, name FROM states ORDER BY country, code'),
      cities: all('SELECT country, state, name FROM cities ORDER BY country, state, name'),
      headOffices: all<Office>('SELECT * FROM head_offices ORDER BY rowid').map((h) => ({
        code: h.code,
        country: h.country,
        name: h.name,
        networkName: h.network_name,
        payoutType: h.payout_type,
        deliveryModes: officeModes.get(h.code) ?? [],
        bankCodes: officeBanks.get(h.code) ?? [],
        demoLocations: h.demo_locations,
      })),
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
      const modes = new Map<string, number[]>();
      for (const m of all<{ code: string; mode: number }>('SELECT head_office_code AS code, delivery_mode AS mode FROM head_office_delivery_modes')) {
        modes.set(m.code, [...(modes.get(m.code) ?? []), m.mode]);
      }
      const banks = new Map<string, string[]>();
      for (const b of all<{ code: string; bank: string }>('SELECT head_office_code AS code, bank_code AS bank FROM head_office_banks ORDER BY rowid')) {
        banks.set(b.code, [...(banks.get(b.code) ?? []), b.bank]);
      }
      type Office = { code: string; country: string; name: string; networkName: string; payoutType: PayoutType; demoLocations: number };
      visit.reference({
        countries: all('SELECT code, name, currency FROM receiving_countries ORDER BY code'),
        states: all('SELECT country, code, name FROM states ORDER BY country, code'),
        headOffices: all<Office>(
          'SELECT code, country, name, network_name AS networkName, payout_type AS payoutType, demo_locations AS demoLocations FROM head_offices ORDER BY rowid',
        ).map((h) => ({ ...h, deliveryModes: modes.get(h.code) ?? [], bankCodes: banks.get(h.code) ?? [] })),
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
