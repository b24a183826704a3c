import type { AgentsQuery, BranchesQuery, City, Page, PayoutNetwork } from '../../contract';
import { PAYOUT_TYPES, type PayoutType } from '../../contract';
import type { DataSet, DataSetSource, DataSetVisitor } from '../domain/data-set';
import { deliveryModeCodeOf } from '../../contract/delivery-modes';

// The store: everything the routes may ask of the data, in the domain's words. One implementation per
// engine (sqlite/, later postgres/); routes never see SQL.

/** Small, rarely-changing reference data the validation layer checks every request against. */
export interface ReferenceData {
  countries: { code: string; name: string; currency: string; deliveryModes: number[] }[];
  deliveryModes: { value: number; name: string }[];
  states: { country: string; code: string; name: string }[];
}

/** The agent list's query after validation and defaults (pageNumber/pageSize filled in). */
export type AgentSearch = Required<Pick<AgentsQuery, 'pageNumber' | 'pageSize'>> &
  Omit<AgentsQuery, 'pageNumber' | 'pageSize'>;
export type BranchSearch = Required<Pick<BranchesQuery, 'pageNumber' | 'pageSize'>> &
  Omit<BranchesQuery, 'pageNumber' | 'pageSize'>;

export interface DataStatus {
  sources: (DataSetSource & { importedAt: string; countries: string[] })[];
}

/** How a replace is carried out; every field is optional. */
export interface ReplaceOptions {
  /**
   * Decides, once the new data set is written, whether it is committed (true) or rolled back (false); a
   * rejection rolls back too. The import writes while its validation still runs, and commits on a clean
   * verdict. With it the write also yields to the event loop between chunks (progress, the worker's
   * messages): only for a connection nothing else uses meanwhile, as in the import command.
   */
  commitWhen?: Promise<boolean>;
  /** Rows of the large tables (branches, agents) written so far, of all. */
  onProgress?: (done: number, total: number) => void;
  /** Called right after the commit, before housekeeping (checkpoint, statistics), with the phase it enters. */
  onCommit?: () => void;
  /**
   * The data version (`readDataSet().version`) the new data set was built from. When given, the replace is
   * refused with DataSetChangedError — checked inside the write transaction, nothing changed — if another
   * replace committed since: an import built on a stale read would otherwise silently undo that one.
   */
  expectedVersion?: string;
  /**
   * The desk change this data set publishes (desk/recovery.ts). The replace commits only while that change is
   * still approved and held by `owner` — its lease renewed by `leaseMs` in the same transaction — and records
   * the swap in desk_swaps there too, so a publish interrupted after the commit is known to have swapped.
   * Otherwise it is refused with ChangeNotHeldError, nothing changed.
   */
  publishing?: { changeId: string; owner: string; leaseMs: number };
}

/** The statements of ReplaceOptions.publishing, with `?` placeholders: hold the change, record the swap. */
/** The tables a data set is served from, in the order a load fills them (the data version's own row aside). */
export const SERVED_TABLES = [
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
] as const;

export const PUBLISHING_SQL = {
  hold: `UPDATE desk_changes SET lease_until = ? WHERE id = ? AND status = 'approved' AND lease_owner = ?`,
  record: `INSERT INTO desk_swaps (change_id, data_version, swapped_at) SELECT ?, CAST(version AS TEXT), ? FROM data_version`,
};

/** SQL written with `?` placeholders, numbered for PostgreSQL ($1, $2…). */
export const numberedParameters = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** replaceDataSet's `publishing` change is no longer held by its publisher (a recovery took it over). */
export class ChangeNotHeldError extends Error {
  constructor(readonly changeId: string) {
    super(`change ${changeId} is no longer held by this publisher (a recovery took it over); nothing was changed`);
    this.name = 'ChangeNotHeldError';
  }
}

/** replaceDataSet's `expectedVersion` is no longer the served one: someone else committed a data set meanwhile. */
export class DataSetChangedError extends Error {
  constructor(
    readonly expectedVersion: string,
    readonly actualVersion: string,
  ) {
    super(
      `the served data set changed while this one was being prepared (data version ${expectedVersion} → ${actualVersion}: another import committed); nothing was changed, run it again`,
    );
    this.name = 'DataSetChangedError';
  }
}

/** Where a store's data lives, so another thread (the search index builder) can open it too. */
export type StoreSource = { engine: 'sqlite'; file: string } | { engine: 'postgres'; connectionString: string };

export interface LookupStore {
  readonly engine: 'sqlite' | 'postgres';
  /** How another thread opens the same data; null when it cannot (an in-memory database). */
  readonly source: StoreSource | null;
  /**
   * Changes whenever a new data set is committed, by this process or another (an import command, another
   * instance). Cheap: the app asks it at most about once a second to refresh its reference cache.
   */
  dataVersion(): Promise<string>;
  /** True when a data set has been loaded. */
  hasData(): Promise<boolean>;
  /**
   * Replaces the whole served data set atomically: readers see the old set or the new one, never a mix.
   * Resolves true when committed, false when `commitWhen` said no (rolled back: nothing changed); rejects with
   * DataSetChangedError when `expectedVersion` is not the served version any more.
   */
  replaceDataSet(dataSet: DataSet, options?: ReplaceOptions): Promise<boolean>;
  referenceData(): Promise<ReferenceData>;
  cities(receivingCountry: string, state: string): Promise<City[]>;
  payoutNetworks(receivingCountry: string, deliveryMode: number): Promise<PayoutNetwork[]>;
  dataStatus(): Promise<DataStatus>;
  /**
   * The served data set handed to `visit` row by row, without holding it (the search index build); resolves
   * with the data version it read at the start. SQLite reads in one snapshot; the caller checks the version
   * again afterwards in any case (search/read-data-set.ts).
   */
  scanDataSet(visit: DataSetVisitor): Promise<string>;
  /**
   * The whole served data set, as loaded (for export, and for replacing one kind while keeping the rest), read
   * in one snapshot, with the data version of that snapshot (what dataVersion() answered inside it): pass it
   * back as replaceDataSet's `expectedVersion`.
   */
  readDataSet(): Promise<{ dataSet: DataSet; version: string }>;
  close(): Promise<void>;
}

export const pageOf = <T>(data: T[], totalItems: number, pageNumber: number, pageSize: number): Page<T> => ({
  data,
  pagination: { pageNumber, pageSize, totalItems, totalPages: Math.ceil(totalItems / pageSize) },
});

/** Splits an agent-list search for delivery mode 04: "[Bank Name], [Branch Name]" (spec §4.1 rule 2). */
export function splitBankBranchSearch(search: string): { bankName?: string; branchName?: string } | null {
  const comma = search.indexOf(',');
  if (comma < 0) return null;
  const bankName = search.slice(0, comma).trim();
  const branchName = search.slice(comma + 1).trim();
  return { bankName: bankName || undefined, branchName: branchName || undefined };
}

/**
 * The store cannot answer right now (database down, connection refused, a query past its statement timeout).
 * The app answers 503 with Retry-After: the request may succeed once the database is back, without a restart.
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** A head office row as both engines read it for the payout-network lookup. */
export interface HeadOfficeNetworkRow {
  code: string;
  name: string;
  network_name: string;
  payout_type: PayoutType;
}

/** The payout-network record of a head office, with its payout type spelled out (spec §2). */
export const toPayoutNetwork = (row: HeadOfficeNetworkRow, receivingCountry: string, deliveryMode: number) => ({
  receivingAgentHeadOfficeCode: row.code,
  headOfficeName: row.name,
  networkName: row.network_name,
  payoutType: row.payout_type,
  payoutTypeDescription: PAYOUT_TYPES[row.payout_type],
  deliveryMode: deliveryModeCodeOf(deliveryMode),
  receivingCountry,
});
