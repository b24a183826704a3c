import type { PayoutType } from '../../contract';

// What the importer produces and a store loads in one transaction: the whole served data set.
// Rows are in the store's terms (snake-free camelCase, codes normalised), never raw CSV.

export interface CountryRow {
  code: string;
  name: string;
  currency: string;
}
export interface DeliveryModeRow {
  value: number;
  name: string;
}
export interface StateRow {
  country: string;
  code: string;
  name: string;
}
export interface CityRow {
  country: string;
  state: string;
  name: string;
}

export interface HeadOfficeRow {
  code: string;
  country: string;
  name: string;
  networkName: string;
  payoutType: PayoutType;
  deliveryModes: number[];
  /** Bank codes this head office pays into for delivery mode 04; `*` expanded to every bank of the country. */
  bankCodes: string[];
  demoLocations: number;
}

export interface BranchRow {
  country: string;
  bankCode: string;
  bankName: string;
  routingNumber: string | null;
  branchName: string;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  district: string | null;
  /** The state's code (GET /v1/states): what is served and searched. */
  state: string | null;
  /** The state as the file spelled it (`MAHARASHTRA`), written back by export; absent: the code. */
  publishedState?: string | null;
}

export interface AgentRow {
  agentCode: string;
  headOfficeCode: string;
  country: string;
  agentName: string;
  addressLine1: string;
  /** Optional in an agents file. */
  addressLine2: string | null;
  city: string;
  /** The state's code (GET /v1/states). */
  state: string;
  /** The state as the file spelled it, written back by export; absent: the code. */
  publishedState?: string;
  /** Optional in an agents file. */
  phoneNumber: string | null;
}

export interface DataSetSource {
  kind: string;
  file: string;
  sha256: string;
  rows: number;
  /** Receiving countries whose rows this file supplies (branches are replaced per country). */
  countries?: string[];
  /** When this file was imported; absent for a new file (the store stamps the commit time). Kept across
   *  replaces of other kinds, so data-status says when each file really arrived. */
  importedAt?: string;
}

export interface DataSet {
  countries: CountryRow[];
  deliveryModes: DeliveryModeRow[];
  states: StateRow[];
  cities: CityRow[];
  headOffices: HeadOfficeRow[];
  branches: BranchRow[];
  agents: AgentRow[];
  sources: DataSetSource[];
}

/** Receives a served data set row by row (LookupStore.scanDataSet): the small tables first, then each branch
 *  in id order, then each agent. The search index builds from it without holding the rows. */
export interface DataSetVisitor {
  reference(parts: Pick<DataSet, 'countries' | 'states' | 'headOffices'>): void;
  branch(row: BranchRow): void;
  agent(row: AgentRow): void;
}
