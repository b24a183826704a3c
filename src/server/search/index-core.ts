import type { Agent, BankBranch } from '../../contract';
import { deliveryModeCodeOf } from '../../contract/delivery-modes';
import { pageOf } from '../store/store';
import type { OfficeEntry, SearchIndexData } from './index-data';
import {
  documentSource,
  encodeDocuments,
  pageBody,
  pageLength,
  type PagePatch,
  type DocumentSource,
  type DocumentTable,
  type EncodeDocuments,
} from './documents';
import { gzipDocuments, gzipPageBody, gzipWorks } from './gzip-documents';
import { ByteWriter } from './byte-writer';
import { IdSet, TextIndex } from './text-index';
import { StringTable } from './strings';
import { pageOfRanks } from './select';
import type { Candidates, RowTest } from './row-scan';

// The index's state (columns, string tables, text indexes, answer documents) and what every search shares:
// the rows' records and a page's answer bytes.

/** The text indexes (contains searches), by name. */
export type TextName = keyof SearchIndexData['trigrams'];
/** Remembered matches of each text index: [term, ids], oldest first (TextIndex.remember). */
export type RememberedMatches = Partial<Record<TextName, [string, Int32Array][]>>;

/**
 * A branch record's first field is the head office it is asked under (six upper-case letters or digits, as the
 * API requires): the documents hold a placeholder there, which each answer overwrites (documents.ts).
 */
export const HEAD_OFFICE_CODE = /^[A-Z0-9]{6}$/;
export const HEAD_OFFICE_PLACEHOLDER = '______';
const BRANCH_DOCUMENT_START = `{"receivingAgentHeadOfficeCode":"${HEAD_OFFICE_PLACEHOLDER}",`;
export const HEAD_OFFICE_AT = BRANCH_DOCUMENT_START.indexOf(HEAD_OFFICE_PLACEHOLDER);
/**
 * The bytes of each document that its gzip record keeps as they are (gzip-documents.ts): a branch's up to the
 * end of the head office it is asked under, which each answer writes over; an agent's none.
 */
const GZIP_PREFIX = { branches: HEAD_OFFICE_AT + HEAD_OFFICE_PLACEHOLDER.length, agents: 0 } as const;

/** A page's bytes, and their Content-Encoding when they are not the JSON itself. */
export interface Answer {
  body: Buffer;
  encoding?: 'gzip';
}

/** Where the gzip records of a table are written (`bytes`: about how many there will be). */
export type GzipWriter = (table: 'branches' | 'agents', bytes: number) => ByteWriter;

function branchDocument(record: BankBranch): string {
  const json = JSON.stringify(record);
  if (!json.startsWith(BRANCH_DOCUMENT_START)) throw new Error('a branch record must start with its head office');
  return json;
}

export class IndexCore {
  readonly version: string;
  protected readonly countryIndex: Map<string, number>;
  protected readonly offices: Map<string, OfficeEntry & { index: number }>;
  protected readonly stateIds: Map<string, number>;
  protected readonly stateNames: Map<string, string>;
  protected readonly tables: Record<keyof SearchIndexData['tables'], StringTable>;
  protected readonly text: Record<TextName, TextIndex>;
  protected readonly sets: Record<TextName, IdSet>;
  /** officesOffering's answers, by country and delivery mode (at most countries × modes entries). */
  protected readonly offering = new Map<string, readonly (OfficeEntry & { index: number })[]>();
  /** banksOfOffice's answers, by head office (worked out once per index: at most one entry per office). */
  protected readonly officeBanks = new Map<number, number[]>();
  /** banksNamed's answers, by office and lower-cased term (at most NAMED_BANKS_KEPT). */
  protected readonly namedBanks = new Map<string, number[]>();
  /** groupsOf's answers, by country index. */
  protected readonly countryGroups = new Map<number, SearchIndexData['bankGroups']>();
  /** The banks' names lower-cased, by bank id (the bank-name filter). */
  protected bankNamesLower: string[] | undefined;
  /** Matches of a search whose rows are gathered from postings (reused, grown as needed). */
  protected gathered = new Int32Array(4096);
  /** Rows of the texts of a remembered term (`TextIndex.matching` answers the same array for the same term). */
  protected readonly postingRowCounts = new WeakMap<Int32Array, number>();
  /** Each row's record as JSON (documents.ts), and where answers copy those bytes from (memory or a file). */
  private readonly documents: { branches: DocumentTable; agents: DocumentTable };
  private readonly sources: { branches: DocumentSource; agents: DocumentSource };
  /** Where gzip answers copy the rows' gzip records from (gzip-documents.ts), for the tables that have them. */
  private readonly gzipSources: { branches?: DocumentSource; agents?: DocumentSource } = {};

  /**
   * `encode`: where the answer documents are written when `data` has none yet (in memory by default; the index
   * worker writes them into a file when the index will serve them from its snapshot). `gzipWriter`: where the
   * documents' gzip records are written when `data` has none yet (gzip-documents.ts; in memory by default); null:
   * none are made (every compressed answer is then compressed per request).
   */
  constructor(
    protected readonly data: SearchIndexData,
    encode: EncodeDocuments = (_table, count, render) => encodeDocuments(count, render),
    gzipWriter: GzipWriter | null = (_table, bytes) => ByteWriter.inMemory(bytes),
  ) {
    this.version = data.version;
    this.countryIndex = new Map(data.countries.map((c, i) => [c, i]));
    this.offices = new Map(data.offices.map((h, index) => [h.code, { ...h, index }]));
    this.tables = Object.fromEntries(
      Object.entries(data.tables).map(([k, v]) => [k, new StringTable(v)]),
    ) as IndexCore['tables'];
    this.stateIds = new Map(Array.from({ length: this.tables.state.size }, (_, id) => [this.tables.state.get(id), id]));
    this.stateNames = new Map(data.states.map((s) => [`${s.country}\u0000${s.code}`, s.name]));
    const text = (name: keyof IndexCore['text']) => new TextIndex(this.tables[name], data.trigrams[name]);
    this.text = {
      branchName: text('branchName'),
      addr1Lower: text('addr1Lower'),
      addr2Lower: text('addr2Lower'),
      districtLower: text('districtLower'),
      agentName: text('agentName'),
    };
    const set = (name: keyof IndexCore['text']) => new IdSet(this.tables[name].size);
    this.sets = {
      branchName: set('branchName'),
      addr1Lower: set('addr1Lower'),
      addr2Lower: set('addr2Lower'),
      districtLower: set('districtLower'),
      agentName: set('agentName'),
    };
    // Written once per data set (in the index worker, which then posts them with the rest), read by every answer.
    data.documents ??= {
      branches: encode('branches', data.branches.count, (row) =>
        branchDocument(this.branchRecord(row, HEAD_OFFICE_PLACEHOLDER)),
      ),
      agents: encode('agents', data.agents.count, (row) => JSON.stringify(this.agentRecord(row))),
    };
    this.documents = data.documents;
    if (gzipWriter && gzipWorks())
      for (const name of ['branches', 'agents'] as const) {
        const table = data.documents[name];
        // About what they take: each row's rest deflated to ~70 %, its prefix and 4 bytes kept as they are.
        table.gzip ??= gzipDocuments(table, GZIP_PREFIX[name], gzipWriter(name, table.offsets.at(-1)! * 0.75));
      }
    const opened: DocumentSource[] = [];
    const open = (table: Pick<DocumentTable, 'bytes'>) => {
      const source = documentSource(table);
      opened.push(source);
      return source;
    };
    try {
      this.sources = { branches: open(data.documents.branches), agents: open(data.documents.agents) };
      for (const name of ['branches', 'agents'] as const) {
        const gzip = data.documents[name].gzip;
        if (gzip) this.gzipSources[name] = open(gzip);
      }
    } catch (error) {
      for (const source of opened) source.close();
      throw error;
    }
  }

  /** Its answer documents (in memory, or where in a file they are). */
  documentTables(): DocumentTable[] {
    return [this.documents.branches, this.documents.agents];
  }

  /** Lets the answer documents' file go (documents in a snapshot file); the index answers nothing after it. */
  close(): void {
    for (const source of [
      this.sources.branches,
      this.sources.agents,
      this.gzipSources.branches,
      this.gzipSources.agents,
    ])
      source?.close();
  }

  /** The terms each text index remembers (what tellers searched lately), oldest first. */
  rememberedTerms(): Partial<Record<TextName, string[]>> {
    const terms: Partial<Record<TextName, string[]>> = {};
    for (const [name, index] of Object.entries(this.text) as [TextName, TextIndex][])
      terms[name] = index.rememberedTerms();
    return terms;
  }

  /** Finds (and remembers) the matches of these terms in this index: the index worker, for its successor. */
  matchesOf(terms: Partial<Record<TextName, string[]>>): RememberedMatches {
    const found: RememberedMatches = {};
    for (const [name, list] of Object.entries(terms) as [TextName, string[]][])
      found[name] = list.map((term) => [term, this.text[name].matching(term)]);
    return found;
  }

  /** Starts remembering matches found by the index worker (matchesOf) for this same index. */
  remember(matches: RememberedMatches): void {
    for (const [name, list] of Object.entries(matches) as [TextName, [string, Int32Array][]][])
      for (const [term, ids] of list) this.text[name].remember(term, ids);
  }

  get branchCount(): number {
    return this.data.branches.count;
  }
  get agentCount(): number {
    return this.data.agents.count;
  }

  /** A page's answer from the documents of `rows` (documents.ts), or from their gzip records. */
  protected pageAnswer(
    table: 'branches' | 'agents',
    rows: number[],
    patch: PagePatch | null,
    total: number,
    paging: { pageNumber: number; pageSize: number },
    allocate: ((length: number) => Buffer) | undefined,
    gzipFrom: number | undefined,
  ): Answer {
    const { pagination } = pageOf([], total, paging.pageNumber, paging.pageSize);
    const documents = this.documents[table];
    const gzip = documents.gzip;
    const source = this.gzipSources[table];
    if (gzipFrom !== undefined && gzip && source && rows.length > 0 && pageLength(documents, rows) >= gzipFrom)
      return {
        body: gzipPageBody(documents, gzip, source, rows, patch, pagination, allocate),
        encoding: 'gzip',
      };
    return { body: pageBody(documents, this.sources[table], rows, patch, pagination, allocate) };
  }

  /** Grows the reused `gathered` array, keeping its first `total` rows, so `more` rows fit after them. */
  protected roomForGathered(total: number, more: number): void {
    if (total + more <= this.gathered.length) return;
    const grown = new Int32Array(Math.max(this.gathered.length * 2, total + more));
    grown.set(this.gathered.subarray(0, total));
    this.gathered = grown;
  }

  /** Counts the accepted candidates and returns the rows of ranks offset…offset+limit-1, in answer order. */
  protected matches(candidates: Candidates, from: number, to: number, test: RowTest, offset: number, limit: number) {
    if ('ranges' in candidates) {
      const rows: number[] = [];
      let total = 0;
      for (const [start, end] of candidates.ranges) {
        for (let row = start; row < end; row++) {
          if (!test.accept(row)) continue;
          if (total >= offset && rows.length < limit) rows.push(row);
          total++;
        }
      }
      return { total, rows };
    }
    let total = 0;
    const keep = (row: number) => {
      if (row >= from && row < to && test.accept(row)) {
        this.roomForGathered(total, 1);
        this.gathered[total++] = row;
      }
    };
    let sorted = true;
    if ('rows' in candidates) {
      for (let i = 0; i < candidates.rows.length; i++) keep(candidates.rows[i]);
    } else {
      const { postings, ids } = candidates;
      for (let i = 0; i < ids.length; i++) {
        for (let p = postings.offsets[ids[i]], end = postings.offsets[ids[i] + 1]; p < end; p++) keep(postings.rows[p]);
      }
      sorted = ids.length === 1;
    }
    return { total, rows: pageOfRanks(this.gathered, total, offset, offset + limit, sorted) };
  }

  protected branchRecord(row: number, headOffice: string): BankBranch {
    const c = this.data.branches;
    const t = this.tables;
    const bank = this.data.banks[c.bank[row]];
    const state = t.state.orNull(c.state[row]);
    return {
      receivingAgentHeadOfficeCode: headOffice,
      branchId: t.branchId.get(row),
      bankCode: bank.code,
      bankName: bank.name,
      routingNumber: t.routing.get(row) || null,
      branchName: t.branchName.get(c.branchName[row]),
      branchLocation: t.addr1.orNull(c.addr1[row]),
      address: t.addr2.orNull(c.addr2[row]),
      city: t.city.orNull(c.city[row]),
      district: t.district.orNull(c.district[row]),
      state,
      stateName: state === null ? null : (this.stateNames.get(`${bank.country}\u0000${state}`) ?? null),
      receivingCountry: bank.country,
    };
  }

  protected agentRecord(row: number): Agent {
    const c = this.data.agents;
    const t = this.tables;
    const office = this.data.offices[c.office[row]];
    const country = office.country;
    const state = t.state.orNull(c.state[row]);
    return {
      receivingAgentHeadOfficeCode: office.code,
      headOfficeName: office.name,
      agentCode: t.agentCode.get(row),
      agentName: t.agentName.get(c.name[row]),
      addressLine1: t.agentAddr1.orNull(c.addr1[row]),
      addressLine2: t.agentAddr2.orNull(c.addr2[row]),
      city: t.city.orNull(c.city[row]),
      state,
      stateName: state === null ? null : (this.stateNames.get(`${country}\u0000${state}`) ?? null),
      phoneNumber: t.phone.orNull(c.phone[row]),
      receivingCountry: country,
      payoutType: office.payoutType,
      deliveryModes: office.deliveryModes.map(deliveryModeCodeOf),
      bankCode: null,
      bankName: null,
      routingNumber: null,
    };
  }
}
