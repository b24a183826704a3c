import type { PayoutType } from '../../contract';
import { shared, type StringTableData } from './strings';
import { inFile, type DocumentTable } from './documents';
import type { PostingsData, TrigramIndexData } from './text-index';

// The search index's data (build.ts makes it, index-core.ts answers from it): its shape, the hash of its code
// tables, and what the index worker does with it whole (share it between threads, measure it).

export interface OfficeEntry {
  code: string;
  country: string;
  name: string;
  payoutType: PayoutType;
  deliveryModes: number[];
  bankCodes: string[];
  /** Its agents: rows agentStart…agentEnd-1. */
  agentStart: number;
  agentEnd: number;
  /** The smallest and largest agent-name id of its agents. */
  nameMin: number;
  nameMax: number;
}

/** A bank of the branch table: one (country, bank code, bank name). */
export interface BankEntry {
  country: string;
  code: string;
  name: string;
  /** The bank-name group (contiguous rows of one bank name in a country) its rows are in. */
  group: number;
}

/** Rows start…end-1: one bank name of a country (one or, rarely, several bank codes). */
export interface BankGroup {
  country: string;
  start: number;
  end: number;
  banks: number[];
}

export interface SearchIndexData {
  version: string;
  countries: string[];
  /** Rows of each country (same order as `countries`): countryStart[i]…countryEnd[i]-1. */
  countryStart: Int32Array;
  countryEnd: Int32Array;
  states: { country: string; code: string; name: string }[];
  offices: OfficeEntry[];
  banks: BankEntry[];
  bankGroups: BankGroup[];
  branches: {
    count: number;
    id: Int32Array;
    bank: Int32Array;
    branchName: Int32Array;
    addr1: Int32Array;
    addr1Lower: Int32Array;
    addr2: Int32Array;
    addr2Lower: Int32Array;
    city: Int32Array;
    district: Int32Array;
    districtLower: Int32Array;
    state: Int32Array;
  };
  agents: {
    count: number;
    office: Int32Array;
    name: Int32Array;
    addr1: Int32Array;
    addr2: Int32Array;
    city: Int32Array;
    state: Int32Array;
    phone: Int32Array;
  };
  tables: Record<
    | 'branchName'
    | 'routing'
    | 'branchId'
    | 'addr1'
    | 'addr1Lower'
    | 'addr2'
    | 'addr2Lower'
    | 'city'
    | 'district'
    | 'districtLower'
    | 'state'
    | 'agentCode'
    | 'agentName'
    | 'agentAddr1'
    | 'agentAddr2'
    | 'phone',
    StringTableData
  >;
  /**
   * Rows by the hash of their routing number / branch id / agent code (per-row tables `routing`, `branchId`,
   * `agentCode`; '' for none).
   */
  hashes: Record<'routing' | 'branchId' | 'agentCode', Int32Array>;
  trigrams: Record<'branchName' | 'addr1Lower' | 'addr2Lower' | 'districtLower' | 'agentName', TrigramIndexData>;
  postings: Record<
    'branchName' | 'addr1Lower' | 'addr2Lower' | 'districtLower' | 'agentName' | 'agentState',
    PostingsData
  >;
  /** Each row's answer record as JSON (documents.ts); written by the SearchIndex made from this data. */
  documents?: { branches: DocumentTable; agents: DocumentTable };
}

/** FNV-1a over UTF-16 code units: the hash of the routing-number and agent-code tables (hash.ts reads them). */
export function codeHash(code: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < code.length; i++) hash = Math.imul(hash ^ code.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The buffers of every typed array in the index: posted as a transfer list, they move without a copy. */
/**
 * Makes every typed array of the index SharedArrayBuffer-backed (a copy of those that are not yet): the index is
 * then posted to the serving threads without copying it, each answering from the same bytes. Returns `data`.
 */
export function shareIndex(data: SearchIndexData): SearchIndexData {
  const walk = (value: unknown): unknown => {
    if (ArrayBuffer.isView(value)) return shared(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = walk(value[i]);
    } else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) (value as Record<string, unknown>)[key] = walk(v);
    }
    return value;
  };
  return walk(data) as SearchIndexData;
}

/** Bytes held by each part of the index (typed arrays and string tables), for the build log and the README. */
export function indexSize(data: SearchIndexData): Record<string, number> {
  const bytes = (value: unknown): number => {
    if (ArrayBuffer.isView(value)) return value.byteLength;
    if (value && typeof value === 'object') return Object.values(value).reduce((sum: number, v) => sum + bytes(v), 0);
    return 0;
  };
  return {
    branchColumns: bytes(data.branches),
    agentColumns: bytes(data.agents),
    stringTables: bytes(data.tables),
    trigramIndexes: bytes(data.trigrams),
    postings: bytes(data.postings),
    ...documentBytes(data),
  };
}

/** The answer documents' bytes, in memory or read from the index snapshot's file per answer (documents.ts). */
function documentBytes(data: SearchIndexData): { documents: number; documentsInFile?: number } {
  const sizes = { documents: 0, documentsInFile: 0 };
  for (const table of Object.values(data.documents ?? {})) {
    sizes[inFile(table.bytes) ? 'documentsInFile' : 'documents'] += table.bytes.byteLength + table.offsets.byteLength;
    // The gzip records (gzip-documents.ts): their offsets and CRCs in memory, their bytes where the documents are.
    if (table.gzip) {
      sizes.documents += table.gzip.offsets.byteLength + table.gzip.crcs.byteLength;
      sizes[inFile(table.gzip.bytes) ? 'documentsInFile' : 'documents'] += table.gzip.bytes.byteLength;
    }
  }
  return sizes.documentsInFile ? sizes : { documents: sizes.documents };
}

/** A branch search's place filters, each with the lower-cased column it is matched in (contains, any case). */
export const placeFilters = (search: { branchLocation?: string; address?: string; district?: string }) =>
  [
    ['addr1Lower', search.branchLocation],
    ['addr2Lower', search.address],
    ['districtLower', search.district],
  ] as const;
