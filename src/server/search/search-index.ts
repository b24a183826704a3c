import {
  ACCOUNT_TRANSFER_TO_OTHER_BANK,
  placeNameVariants,
  type Agent,
  type BankBranch,
  type Page,
} from '../../contract';
import { deliveryModeCodeOf } from '../../contract/delivery-modes';
import { pageOf, splitBankBranchSearch, type AgentSearch, type BranchSearch } from '../store/store';
import { codeHash, type OfficeEntry, type SearchIndexData } from './build';
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
import { IdSet, TextIndex, postingsRows, type PostingsData } from './text-index';
import { StringTable } from './strings';
import { pageOfRanks } from './select';

// Answers the agent list and the bank branches from one data set's index (build.ts), synchronously: an answer
// comes wholly from the data version the index was built from.
//
// A search is a scope (the rows of some bank-name groups, or of some head offices: contiguous ranges in answer
// order) and conditions checked row by row (bank, code, state, the contains filters as sets of matching text
// ids). The rows to check come from the cheaper of: the scope's ranges, or the postings (rows by text) of one
// contains filter. Ranges are visited in answer order, so counting all matches and keeping the page's rows is
// one pass; postings are not, so the matches are gathered and the page's ranks selected.

/**
 * Checking a row reached through postings costs about this much more than a row visited in a range: the
 * columns are read out of order (cache misses), and the matches are gathered and then selected.
 */
const POSTINGS_ROW_COST = 3;
/**
 * A posting walked against the ranges (postingsInRanges: no column read, a copy per run inside a range) costs
 * about this much more than a row visited in a range.
 */
const RANGED_POSTING_COST = 1;
/** Counting one text's rows inside one range (two binary searches) costs about this many rows scanned. */
const BINARY_SEARCH_COST = 24;
/** Bank-name filters remembered (banksNamed), each an array of one number per bank. */
const NAMED_BANKS_KEPT = 1024;

/**
 * One contains filter of a branch search. Its ids are put in `set` (stamped) only when a test checks more rows than
 * that costs: a common word can match thousands of texts (an Indian "branch" matches 4,688 addresses), and a bank
 * of 113 rows is cheaper checked by binary search in the ids than by stamping them all first.
 */
interface TextCondition {
  column: Int32Array;
  set: IdSet;
  postings: PostingsData;
  ids: Int32Array;
  /** The ids are in `set` (its current generation). */
  stamped?: boolean;
}

/** Where the rows to check come from: ranges (in answer order), the postings of some texts, or a sorted list. */
type Candidates =
  { ranges: [number, number][] } | { postings: PostingsData; ids: ArrayLike<number> } | { rows: Int32Array };

interface BranchConditions {
  /** Banks in scope (head office banks, bank-name filter), by bank id: 1 in scope. */
  banks: number[];
  /** bankCode: the row's bank has that code, or the row is one of `routed` (those with that routing number). */
  code?: { banks: number[]; routed: number[] };
  state: number;
  /** Contains filters that must all hold: the row's id in `column` is one of `ids` (ascending). */
  texts: TextCondition[];
  /** Mode-04 agent search without a comma: the bank name or the branch name contains it. */
  either?: { banks: number[]; names: IdSet };
}

/** The text indexes (contains searches), by name. */
export type TextName = keyof SearchIndexData['trigrams'];
/** Remembered matches of each text index: [term, ids], oldest first (TextIndex.remember). */
export type RememberedMatches = Partial<Record<TextName, [string, Int32Array][]>>;

export class SearchIndex {
  readonly version: string;
  private readonly countryIndex: Map<string, number>;
  private readonly offices: Map<string, OfficeEntry & { index: number }>;
  private readonly stateIds: Map<string, number>;
  private readonly stateNames: Map<string, string>;
  private readonly tables: Record<keyof SearchIndexData['tables'], StringTable>;
  private readonly text: Record<TextName, TextIndex>;
  private readonly sets: Record<TextName, IdSet>;
  /** officesOffering's answers, by country and delivery mode (at most countries × modes entries). */
  private readonly offering = new Map<string, readonly (OfficeEntry & { index: number })[]>();
  /** banksOfOffice's answers, by head office (worked out once per index: at most one entry per office). */
  private readonly officeBanks = new Map<number, number[]>();
  /** banksNamed's answers, by office and lower-cased term (at most NAMED_BANKS_KEPT). */
  private readonly namedBanks = new Map<string, number[]>();
  /** groupsOf's answers, by country index. */
  private readonly countryGroups = new Map<number, SearchIndexData['bankGroups']>();
  /** The banks' names lower-cased, by bank id (the bank-name filter). */
  private bankNamesLower: string[] | undefined;
  /** Matches of a search whose rows are gathered from postings (reused, grown as needed). */
  private gathered = new Int32Array(4096);
  /** Rows of the texts of a remembered term (`TextIndex.matching` answers the same array for the same term). */
  private readonly postingRowCounts = new WeakMap<Int32Array, number>();
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
    private readonly data: SearchIndexData,
    encode: EncodeDocuments = (_table, count, render) => encodeDocuments(count, render),
    gzipWriter: GzipWriter | null = (_table, bytes) => ByteWriter.inMemory(bytes),
  ) {
    this.version = data.version;
    this.countryIndex = new Map(data.countries.map((c, i) => [c, i]));
    this.offices = new Map(data.offices.map((h, index) => [h.code, { ...h, index }]));
    this.tables = Object.fromEntries(
      Object.entries(data.tables).map(([k, v]) => [k, new StringTable(v)]),
    ) as SearchIndex['tables'];
    this.stateIds = new Map(Array.from({ length: this.tables.state.size }, (_, id) => [this.tables.state.get(id), id]));
    this.stateNames = new Map(data.states.map((s) => [`${s.country}\u0000${s.code}`, s.name]));
    const text = (name: keyof SearchIndex['text']) => new TextIndex(this.tables[name], data.trigrams[name]);
    this.text = {
      branchName: text('branchName'),
      addr1Lower: text('addr1Lower'),
      addr2Lower: text('addr2Lower'),
      districtLower: text('districtLower'),
      agentName: text('agentName'),
    };
    const set = (name: keyof SearchIndex['text']) => new IdSet(this.tables[name].size);
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

  /**
   * Request paths that warm a new index before it serves (issue #26: the first seconds after /readyz, and after
   * a swap): searches made of words of rows spread evenly over the data set, with their own head office, so
   * the words are drawn by how often they occur — the terms tellers type most are the ones whose matches the
   * text indexes then remember — and every code path of a search (JIT) runs before the first real request.
   */
  warmUpPaths(count = 400): string[] {
    const words = (text: string | null) => (text ?? '').toLowerCase().match(/\p{L}{4,}/gu) ?? [];
    const query = (endpoint: string, values: Record<string, string | number>) =>
      `/v1/${endpoint}?${new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)])).toString()}`;
    const officeOfBank = new Map<string, OfficeEntry>();
    for (const office of this.data.offices)
      if (office.deliveryModes.includes(ACCOUNT_TRANSFER_TO_OTHER_BANK))
        for (const code of office.bankCodes) if (!officeOfBank.has(code)) officeOfBank.set(code, office);
    const paths: string[] = [];
    const branches = this.data.branches.count;
    for (let i = 0; i < count && branches > 0; i++) {
      const record = this.branchRecord(Math.floor((i * branches) / count), HEAD_OFFICE_PLACEHOLDER);
      const office = officeOfBank.get(record.bankCode);
      if (!office) continue;
      const bankWord = words(record.bankName)[i % 2];
      const placeWord = words(record.branchLocation)[0];
      const values: Record<string, string | number> = {
        receivingCountry: office.country,
        deliveryMode: '04',
        receivingAgentHeadOfficeCode: office.code,
        pageNumber: 1 + (i % 2),
      };
      if (bankWord) values.bankName = bankWord;
      if (placeWord) values.branchLocation = placeWord;
      paths.push(query('banks/branches', values));
      if (i % 8 === 0 && record.routingNumber) paths.push(`/v1/codes/${encodeURIComponent(record.routingNumber)}`);
    }
    const agents = this.data.agents.count;
    for (let i = 0; i < count && agents > 0; i++) {
      const record = this.agentRecord(Math.floor((i * agents) / count));
      const mode = record.deliveryModes[0];
      if (!mode) continue;
      const values: Record<string, string | number> = {
        receivingCountry: record.receivingCountry,
        deliveryMode: mode,
        pageNumber: 1 + (i % 2),
      };
      if (record.state && i % 2 === 0) values.state = record.state;
      // The agent search is case-sensitive: a word as the name writes it.
      const nameWord = record.agentName.match(/\p{L}{4,}/u)?.[0];
      if (nameWord) values.search = nameWord;
      paths.push(query('agents', values));
    }
    return paths;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Bank branches (spec §4.3)

  /**
   * Branches of the banks the head office pays into. A bank code outside those banks, or a head office that is
   * unknown or does not offer the mode in this country, gives an empty page (spec §7 rule 1), not an error.
   */
  branches(search: BranchSearch): Page<BankBranch> {
    const { total, rows } = this.branchMatches(search);
    const data = rows.map((row) => this.branchRecord(row, search.receivingAgentHeadOfficeCode));
    return pageOf(data, total, search.pageNumber, search.pageSize);
  }

  /** The same answer as `branches`, as the JSON text of the page (UTF-8), written from the rows' documents. */
  branchesJson(search: BranchSearch, allocate?: (length: number) => Buffer): Buffer {
    return this.branchesAnswer(search, allocate).body;
  }

  /**
   * `branchesJson`, or the same JSON as a gzip member made from the rows' gzip records (gzip-documents.ts) when
   * `gzipFrom` is given and the JSON would be at least that many bytes (`encoding` then says so).
   */
  branchesAnswer(search: BranchSearch, allocate?: (length: number) => Buffer, gzipFrom?: number): Answer {
    const office = search.receivingAgentHeadOfficeCode;
    // Only a code of the placeholder's shape can be written over it (the API accepts no other).
    if (!HEAD_OFFICE_CODE.test(office)) return { body: Buffer.from(JSON.stringify(this.branches(search))) };
    const { total, rows } = this.branchMatches(search);
    const patch = { at: HEAD_OFFICE_AT, bytes: Buffer.from(office, 'latin1') };
    return this.pageAnswer('branches', rows, patch, total, search, allocate, gzipFrom);
  }

  /** A page's answer from the documents of `rows` (documents.ts), or from their gzip records. */
  private pageAnswer(
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

  /** The matching rows: how many, and those of the asked page. */
  private branchMatches(search: BranchSearch): { total: number; rows: number[] } {
    const office = this.offices.get(search.receivingAgentHeadOfficeCode);
    const country = this.countryIndex.get(search.receivingCountry);
    const empty = { total: 0, rows: [] };
    if (
      !office ||
      country === undefined ||
      office.country !== search.receivingCountry ||
      !office.deliveryModes.includes(search.deliveryMode)
    )
      return empty;
    const banks = (search.bankName ? this.banksNamed(office, search.bankName) : this.banksOfOffice(office)).slice();
    const conditions: BranchConditions = { banks, state: -1, texts: [] };
    if (search.bankCode) {
      const code = search.bankCode;
      const routed = this.rowsWithCode('routing', code);
      // A bank code that is no routing number narrows the banks in scope: whole banks, read by position.
      if (routed.length === 0)
        for (let b = 0; b < banks.length; b++) banks[b] &= this.data.banks[b].code === code ? 1 : 0;
      else conditions.code = { banks: this.banksWhere(search.receivingCountry, (bank) => bank.code === code), routed };
    }
    for (const [name, term] of [
      ['addr1Lower', search.branchLocation],
      ['addr2Lower', search.address],
      ['districtLower', search.district],
    ] as const) {
      if (term === undefined) continue;
      // A place known under two names (contract/place-aliases.ts) is found under either.
      const ids = this.matchingAny(
        this.text[name],
        placeNameVariants(search.receivingCountry, term).map((t) => t.toLowerCase()),
      );
      if (ids.length === 0) return empty;
      conditions.texts.push({
        column: this.data.branches[name],
        set: this.sets[name],
        postings: this.data.postings[name],
        ids,
      });
    }
    const offset = (search.pageNumber - 1) * search.pageSize;
    return this.branchRows(country, conditions, offset, search.pageSize);
  }

  /** Ids of the texts holding any of the terms (ascending). */
  private matchingAny(index: TextIndex, terms: string[]): Int32Array {
    if (terms.length === 1) return index.matching(terms[0]);
    return Int32Array.from(new Set(terms.flatMap((term) => [...index.matching(term)]))).sort();
  }

  /** 1 for the banks a head office pays into (its country's banks with one of its bank codes); not to be changed. */
  private banksOfOffice(office: OfficeEntry & { index: number }): readonly number[] {
    let banks = this.officeBanks.get(office.index);
    if (!banks) {
      banks = this.banksWhere(office.country, (bank) => office.bankCodes.includes(bank.code));
      this.officeBanks.set(office.index, banks);
    }
    return banks;
  }

  /**
   * The office's banks whose name contains `bankName` (case-insensitive), remembered per office and term like the
   * texts a term matches (TextIndex): tellers type the same few bank names, and checking every bank's name was
   * a tenth of a typical search's own time. Not to be changed; bounded (cleared when full).
   */
  private banksNamed(office: OfficeEntry & { index: number }, bankName: string): readonly number[] {
    const term = bankName.toLowerCase();
    const key = `${office.index}\u0000${term}`;
    let banks = this.namedBanks.get(key);
    if (!banks) {
      const names = (this.bankNamesLower ??= this.data.banks.map((bank) => bank.name.toLowerCase()));
      banks = this.banksOfOffice(office).map((inScope, b) => (inScope && names[b].includes(term) ? 1 : 0));
      if (this.namedBanks.size >= NAMED_BANKS_KEPT) this.namedBanks.clear();
      this.namedBanks.set(key, banks);
    }
    return banks;
  }

  /** The bank groups of a country (ascending rows), worked out once per index. */
  private groupsOf(country: number): readonly SearchIndexData['bankGroups'][number][] {
    let groups = this.countryGroups.get(country);
    if (!groups) {
      groups = this.data.bankGroups.filter((group) => group.country === this.data.countries[country]);
      this.countryGroups.set(country, groups);
    }
    return groups;
  }

  /** 1 for the banks of the country that `keep` keeps (a plain array: a small set made per search). */
  private banksWhere(country: string, keep: (bank: SearchIndexData['banks'][number]) => boolean): number[] {
    const banks = new Array<number>(this.data.banks.length).fill(0);
    this.data.banks.forEach((bank, b) => {
      if (bank.country === country && keep(bank)) banks[b] = 1;
    });
    return banks;
  }

  /** Rows whose routing number (branches) or agent code (agents) is `code`, ascending, from the hash table. */
  rowsWithCode(column: 'routing' | 'branchId' | 'agentCode', code: string): number[] {
    const table = this.data.hashes[column];
    const values = this.tables[column];
    const mask = table.length - 1;
    const rows: number[] = [];
    for (let slot = codeHash(code) & mask; table[slot] !== 0; slot = (slot + 1) & mask) {
      if (values.get(table[slot] - 1) === code) rows.push(table[slot] - 1);
    }
    return rows.sort((x, y) => x - y);
  }

  /** Matching branch rows of one country: how many, and those of ranks offset…offset+limit-1 in answer order. */
  private branchRows(
    country: number,
    conditions: BranchConditions,
    offset: number,
    limit: number,
  ): { total: number; rows: number[] } {
    const { banks, code } = conditions;
    const groups = this.data.bankGroups;
    const ranges: [number, number][] = [];
    let rangeRows = 0;
    let wholeGroups = true;
    const anyRouted = code !== undefined && code.routed.length > 0;
    for (const group of this.groupsOf(country)) {
      let inScope = 0;
      for (const b of group.banks) if (banks[b] && (!code || code.banks[b] || anyRouted)) inScope++;
      if (inScope === 0) continue;
      if (inScope !== group.banks.length) wholeGroups = false;
      ranges.push([group.start, group.end]);
      rangeRows += group.end - group.start;
    }
    if (ranges.length === 0) return { total: 0, rows: [] };
    const onlyBanks = wholeGroups && !code && conditions.state < 0 && !conditions.either;
    if (onlyBanks && conditions.texts.length === 0) return pageOfRanges(ranges, rangeRows, offset, limit);
    const columns = this.data.branches;
    if (onlyBanks && conditions.texts.length === 1) {
      // One contains filter over whole banks: the total is counted from the postings (each text's rows are
      // ascending, so its rows inside a range are found by binary search), and the page is read in answer
      // order along the ranges, stopping once it is full.
      const merged = mergeRanges(ranges);
      const { postings, ids } = conditions.texts[0];
      const countCost = ids.length * merged.length * BINARY_SEARCH_COST;
      const postingCount = this.postingsRows(postings, ids);
      // The total, when counting it costs less than reading the rows: then the page alone is looked for.
      let total = -1;
      let scanned = rangeRows;
      if (countCost < rangeRows && countCost < postingCount * RANGED_POSTING_COST) {
        total = 0;
        for (let i = 0; i < ids.length; i++) {
          const from = postings.offsets[ids[i]];
          const to = postings.offsets[ids[i] + 1];
          for (const [start, end] of merged)
            total += lowerBound(postings.rows, from, to, end) - lowerBound(postings.rows, from, to, start);
        }
        if (offset >= total || limit <= 0) return { total, rows: [] };
        // About how many rows a scan along the ranges reads before the page is full (matches spread evenly).
        scanned = Math.min(rangeRows, ((offset + limit) * rangeRows) / total);
        if (scanned <= total * RANGED_POSTING_COST)
          return { total, rows: firstMatches(merged, new BranchTest(columns, conditions, scanned), offset, limit) };
      }
      // Few matches spread over the ranges: gathering them from the postings beats scanning for the page.
      if (postingCount * RANGED_POSTING_COST < rangeRows)
        return this.postingsInRanges(postings, ids, merged, offset, limit);
      // Many postings (a common word), the total already counted: the scan stops once the page is full, where
      // scanning every row (below) would count the total again ("andhra" + "branch": 172,497 rows, 1.3 ms).
      if (total >= 0)
        return { total, rows: firstMatches(merged, new BranchTest(columns, conditions, scanned), offset, limit) };
    }

    // The cheapest source of rows to check: the ranges, or the postings of one condition.
    let candidates: Candidates = { ranges };
    let cost = rangeRows;
    let checked = rangeRows;
    if (code && code.routed.length > 0) {
      // A routing number: its row(s), plus the rows of a bank with that code (rarely both), in answer order.
      const rows = [...code.routed];
      for (const [start, end] of ranges) {
        if (!groups.some((g) => g.start === start && g.banks.some((b) => code.banks[b]))) continue;
        for (let row = start; row < end; row++) if (code.banks[this.data.branches.bank[row]] === 1) rows.push(row);
      }
      candidates = { rows: Int32Array.from(new Set(rows)).sort() };
      cost = checked = rows.length;
    } else if (code) {
      const codeRanges = ranges.filter(([start]) =>
        groups.some((g) => g.start === start && g.banks.some((b) => code.banks[b])),
      );
      candidates = { ranges: codeRanges };
      cost = checked = codeRanges.reduce((sum, [s, e]) => sum + e - s, 0);
    }
    for (const text of conditions.texts) {
      const rows = this.postingsRows(text.postings, text.ids);
      if (rows * POSTINGS_ROW_COST < cost) {
        cost = rows * POSTINGS_ROW_COST;
        checked = rows;
        candidates = { postings: text.postings, ids: text.ids };
      }
    }
    return this.matches(
      candidates,
      this.data.countryStart[country],
      this.data.countryEnd[country],
      new BranchTest(columns, conditions, checked),
      offset,
      limit,
    );
  }

  /**
   * The rows of the texts `ids` (postings) inside `ranges` (ascending, disjoint): each text's rows and the ranges
   * are walked together, jumping by binary search over a run of either that cannot match. The rows' columns are
   * never read: the postings say the text, and the ranges (whole banks) say the bank. Reading the bank and text
   * columns of rows reached through postings (matches) was a cache miss or two a row: 205 µs for the bench's
   * typical search (2,683 rows), against 14 ns a row scanned along a range.
   */
  private postingsInRanges(
    postings: PostingsData,
    ids: ArrayLike<number>,
    ranges: [number, number][],
    offset: number,
    limit: number,
  ): { total: number; rows: number[] } {
    const starts = Int32Array.from(ranges, (r) => r[0]);
    const ends = Int32Array.from(ranges, (r) => r[1]);
    const list = postings.rows;
    let total = 0;
    for (let i = 0; i < ids.length; i++) {
      const end = postings.offsets[ids[i] + 1];
      let p = postings.offsets[ids[i]];
      let r = 0;
      while (p < end && r < ends.length) {
        const row = list[p];
        if (row >= ends[r]) r = firstAbove(ends, r + 1, ends.length, row);
        else if (row < starts[r]) p = lowerBound(list, p + 1, end, starts[r]);
        else {
          // Every posting up to the range's end is inside it: copied one by one (a run is a few rows; a subarray
          // and set() per run cost more than the copy, and left garbage).
          const last = lowerBound(list, p + 1, end, ends[r]);
          this.roomForGathered(total, last - p);
          const gathered = this.gathered;
          while (p < last) gathered[total++] = list[p++];
          r++;
        }
      }
    }
    return { total, rows: pageOfRanks(this.gathered, total, offset, offset + limit, ids.length === 1) };
  }

  /** How many rows the texts `ids` have (their postings), remembered for the ids a text index remembers. */
  private postingsRows(postings: PostingsData, ids: Int32Array): number {
    let rows = this.postingRowCounts.get(ids);
    if (rows === undefined) {
      rows = postingsRows(postings, ids);
      this.postingRowCounts.set(ids, rows);
    }
    return rows;
  }

  /** Grows the reused `gathered` array, keeping its first `total` rows, so `more` rows fit after them. */
  private roomForGathered(total: number, more: number): void {
    if (total + more <= this.gathered.length) return;
    const grown = new Int32Array(Math.max(this.gathered.length * 2, total + more));
    grown.set(this.gathered.subarray(0, total));
    this.gathered = grown;
  }

  /** Counts the accepted candidates and returns the rows of ranks offset…offset+limit-1, in answer order. */
  private matches(candidates: Candidates, from: number, to: number, test: RowTest, offset: number, limit: number) {
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

  private branchRecord(row: number, headOffice: string): BankBranch {
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

  // ---------------------------------------------------------------------------------------------------------
  // Agent list (spec §4.1)

  /**
   * Head offices of the country offering the mode, by code: the agent list's order. Worked out once per country
   * and mode for this index (a part of the index, like its columns: the offices never change within a data
   * version). Made per request, the copies were garbage that V8 placed straight in the old generation (6.6 kB a
   * search, kept until a full collection: issue #26's memory while serving).
   */
  private officesOffering(country: string, deliveryMode: number): readonly (OfficeEntry & { index: number })[] {
    const key = `${country}\u0000${deliveryMode}`;
    let offices = this.offering.get(key);
    if (!offices) {
      if (!this.countryIndex.has(country)) return [];
      offices = this.data.offices
        .map((h, index) => ({ ...h, index }))
        .filter((h) => h.country === country && h.deliveryModes.includes(deliveryMode));
      this.offering.set(key, offices);
    }
    return offices;
  }

  agents(search: AgentSearch): Page<Agent> {
    const offset = (search.pageNumber - 1) * search.pageSize;
    if (search.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK) {
      const { total, agents } = this.branchAgents(search, offset);
      return pageOf(agents, total, search.pageNumber, search.pageSize);
    }
    const { total, rows } = this.agentRows(search, offset);
    return pageOf(
      rows.map((row) => this.agentRecord(row)),
      total,
      search.pageNumber,
      search.pageSize,
    );
  }

  /**
   * The same answer as `agents`, as the JSON text of the page, written from the rows' documents; delivery mode
   * 04 (answered from bank branches, each record made for its head office) returns null: use `agents`.
   */
  agentsJson(search: AgentSearch, allocate?: (length: number) => Buffer): Buffer | null {
    return this.agentsAnswer(search, allocate)?.body ?? null;
  }

  /** `agentsJson`, or its gzip member, as `branchesAnswer`. */
  agentsAnswer(search: AgentSearch, allocate?: (length: number) => Buffer, gzipFrom?: number): Answer | null {
    if (search.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK) return null;
    const { total, rows } = this.agentRows(search, (search.pageNumber - 1) * search.pageSize);
    return this.pageAnswer('agents', rows, null, total, search, allocate, gzipFrom);
  }

  /**
   * Agents of the country's head offices offering the mode, head office by head office (by code), each a
   * contiguous range of rows; search is a case-sensitive contains on head office or agent name: a head office
   * whose name contains it answers with all its agents (in the state, if one is asked), the others with their
   * agents whose name contains it.
   */
  private agentRows(search: AgentSearch, offset: number): { total: number; rows: number[] } {
    const offices = this.officesOffering(search.receivingCountry, search.deliveryMode);
    const state = search.state === undefined ? -1 : (this.stateIds.get(search.state) ?? -2);
    if (offices.length === 0 || state === -2) return { total: 0, rows: [] };
    const columns = this.data.agents;
    const byState = this.data.postings.agentState;
    const term = search.search;
    const nameIds = term === undefined ? null : this.text.agentName.matching(term);
    const byName = this.data.postings.agentName;
    let total = 0;
    const found: number[] = [];
    for (const office of offices) {
      const { agentStart: start, agentEnd: end } = office;
      const skip = Math.max(0, offset - total);
      const wanted = search.pageSize - found.length;
      let page: { total: number; rows: number[] };
      if (nameIds === null || office.name.includes(term!)) {
        // No name filter: the office's rows, or those in the state (a slice of the state's postings).
        if (state < 0) page = pageOfRanges([[start, end]], end - start, skip, wanted);
        else {
          const list = byState.rows;
          const from = lowerBound(list, byState.offsets[state], byState.offsets[state + 1], start);
          const to = lowerBound(list, from, byState.offsets[state + 1], end);
          page = {
            total: to - from,
            rows: Array.from(list.subarray(from + skip, Math.min(to, from + skip + Math.max(0, wanted)))),
          };
        }
      } else {
        // Its rows whose name matches: from the matched names inside its span of name ids, its state's rows,
        // or its whole range, whichever is fewest.
        const first = lowerBound(nameIds, 0, nameIds.length, office.nameMin);
        const ids = nameIds.subarray(first, lowerBound(nameIds, first, nameIds.length, office.nameMax + 1));
        if (ids.length === 0) {
          // None of its agents' names contains the term: nothing of it to scan.
          continue;
        }
        let candidates: Candidates = { ranges: [[start, end]] };
        let cost = end - start;
        // What the candidates leave to check: every candidate is a row of this office (its range, or the
        // postings kept inside it by matches); the state's slice is all in the state, the names' postings all of
        // matching names. A column read per row is a cache miss when the rows come from postings.
        let checkState = state >= 0;
        let checkName = true;
        if (state >= 0) {
          // The state's rows of this office only: its slice of the state's postings. Ascending rows, visited in
          // order and not gathered to be selected: no POSTINGS_ROW_COST (measured: the bench's agent searches 24 →
          // 20 µs with the slice, 21–22 µs when it is weighed like postings).
          const list = byState.rows;
          const from = lowerBound(list, byState.offsets[state], byState.offsets[state + 1], start);
          const to = lowerBound(list, from, byState.offsets[state + 1], end);
          if (to - from < cost) {
            candidates = { rows: list.subarray(from, to) };
            cost = to - from;
            checkState = false;
          }
        }
        // The names' rows, counted only when they can be fewer: each name has at least one row.
        if (ids.length * POSTINGS_ROW_COST < cost) {
          const viaNames = postingsRows(byName, ids) * POSTINGS_ROW_COST;
          if (viaNames < cost) {
            candidates = { postings: byName, ids };
            cost = viaNames;
            checkState = state >= 0;
            checkName = false;
          }
        }
        // The office's matched names only (not every name the term matched, across every office): stamped, or
        // looked up by binary search when few rows are to be checked against many names (BranchTest's rule).
        const names = checkName ? new TextMembership({ set: this.sets.agentName, ids }, cost) : null;
        const test = new AgentTest(columns.state, checkState ? state : -1, columns.name, names);
        page = this.matches(candidates, start, end, test, skip, Math.max(0, wanted));
      }
      found.push(...page.rows);
      total += page.total;
    }
    return { total, rows: found };
  }

  private agentRecord(row: number): Agent {
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

  /**
   * Delivery mode 04: the agent list answers from the bank branches each mode-04 head office pays into, head
   * office by head office (by code). The search follows "[Bank Name], [Branch Name]"; without a comma it is a
   * contains on head office, bank or branch name. Case-sensitive, like every agent-list search (spec §4.1).
   */
  private branchAgents(search: AgentSearch, offset: number): { total: number; agents: Agent[] } {
    const country = this.countryIndex.get(search.receivingCountry);
    const offices = this.officesOffering(search.receivingCountry, search.deliveryMode);
    if (country === undefined || offices.length === 0) return { total: 0, agents: [] };
    const state = search.state === undefined ? -1 : (this.stateIds.get(search.state) ?? -2);
    if (state === -2) return { total: 0, agents: [] };
    const parts = search.search ? splitBankBranchSearch(search.search) : null;
    const namedBanks = (term: string) => this.banksWhere(search.receivingCountry, (bank) => bank.name.includes(term));
    const texts: BranchConditions['texts'] = [];
    let either: BranchConditions['either'];
    let bankNamed: number[] | null = null;
    if (parts) {
      if (parts.bankName) bankNamed = namedBanks(parts.bankName);
      if (parts.branchName) {
        const ids = this.text.branchName.matching(parts.branchName);
        texts.push({
          column: this.data.branches.branchName,
          set: this.sets.branchName,
          postings: this.data.postings.branchName,
          ids,
        });
      }
    } else if (search.search) {
      either = {
        banks: namedBanks(search.search),
        names: this.sets.branchName.reset(this.text.branchName.matching(search.search)),
      };
    }
    let total = 0;
    const agents: Agent[] = [];
    for (const office of offices) {
      const banks = this.banksOfOffice(office).slice();
      if (bankNamed) for (let b = 0; b < banks.length; b++) banks[b] &= bankNamed[b];
      const wholeOffice = either !== undefined && office.name.includes(search.search!);
      const conditions: BranchConditions = { banks, state, texts, either: wholeOffice ? undefined : either };
      const skip = Math.max(0, offset - total);
      const wanted = search.pageSize - agents.length;
      const page = this.branchRows(country, conditions, skip, wanted);
      for (const row of page.rows) agents.push(this.branchAgentRecord(row, office));
      total += page.total;
    }
    return { total, agents };
  }

  private branchAgentRecord(row: number, office: OfficeEntry): Agent {
    const branch = this.branchRecord(row, office.code);
    return {
      receivingAgentHeadOfficeCode: office.code,
      headOfficeName: office.name,
      agentCode: branch.routingNumber ?? `${branch.bankCode}-${this.data.branches.id[row]}`,
      agentName: branch.branchName,
      addressLine1: branch.branchLocation,
      addressLine2: branch.address,
      city: branch.city,
      state: branch.state,
      stateName: branch.stateName,
      phoneNumber: null,
      receivingCountry: branch.receivingCountry,
      payoutType: office.payoutType,
      deliveryModes: [deliveryModeCodeOf(ACCOUNT_TRANSFER_TO_OTHER_BANK)],
      bankCode: branch.bankCode,
      bankName: branch.bankName,
      routingNumber: branch.routingNumber,
    };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Extensions beyond the spec (issue #15): the code lookup (codes.ts) and browsing with facets (browse.ts)
  // read the same columns, so both stores answer them alike and from the same data version.

  /** What the extension lookups read: the columns, string tables and the row records of the searches. */
  get extensionView(): IndexView {
    return {
      data: this.data,
      tables: this.tables,
      stateName: (country, code) => this.stateNames.get(`${country}\u0000${code}`) ?? null,
      branchRecord: (row, headOffice) => this.branchRecord(row, headOffice),
      agentRecord: (row) => this.agentRecord(row),
      routedRows: (code) => this.rowsWithCode('routing', code),
      matchingPlaces: (column, country, term) =>
        this.matchingAny(
          this.text[column],
          placeNameVariants(country, term).map((t) => t.toLowerCase()),
        ),
      bankStateCounts: () => (this.bankStates ??= this.countBankStates()),
      matchingText: (name, term) => this.text[name].matching(term),
      agentRows: (code) => this.rowsWithCode('agentCode', code),
    };
  }

  /** Rows by bank and state, made on first use (one pass over the branches): see IndexView.bankStateCounts. */
  private bankStates: Int32Array | null = null;
  private countBankStates(): Int32Array {
    const width = this.tables.state.size + 1;
    const counts = new Int32Array(this.data.banks.length * width);
    const { bank, state } = this.data.branches;
    for (let row = 0; row < this.data.branches.count; row++)
      counts[bank[row] * width + (state[row] < 0 ? width - 1 : state[row])]++;
    return counts;
  }
}

/** See SearchIndex.extensionView. */
export interface IndexView {
  data: SearchIndexData;
  tables: Record<keyof SearchIndexData['tables'], StringTable>;
  stateName(country: string, code: string): string | null;
  branchRecord(row: number, headOffice: string): BankBranch;
  agentRecord(row: number): Agent;
  /** Branch rows whose routing number is the code (the hash table). */
  routedRows(code: string): number[];
  /**
   * Ids of the lower-cased texts of the column holding the term under any of its place names (as the branch filters).
   */
  matchingPlaces(column: 'addr1Lower' | 'addr2Lower' | 'districtLower', country: string, term: string): Int32Array;
  /** Branch rows by bank and state: [bank * (states + 1) + state], the last column for rows without a state. */
  bankStateCounts(): Int32Array;
  /** Ids of the branch or agent names containing the term, as written (case-sensitive). */
  matchingText(name: 'branchName' | 'agentName', term: string): Int32Array;
  /** Agent rows whose agent code is the code (the hash table). */
  agentRows(code: string): number[];
}

/**
 * A branch record's first field is the head office it is asked under (six upper-case letters or digits, as the
 * API requires): the documents hold a placeholder there, which each answer overwrites (documents.ts).
 */
const HEAD_OFFICE_CODE = /^[A-Z0-9]{6}$/;
const HEAD_OFFICE_PLACEHOLDER = '______';
const BRANCH_DOCUMENT_START = `{"receivingAgentHeadOfficeCode":"${HEAD_OFFICE_PLACEHOLDER}",`;
const HEAD_OFFICE_AT = BRANCH_DOCUMENT_START.indexOf(HEAD_OFFICE_PLACEHOLDER);
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

interface RowTest {
  accept(row: number): boolean;
}

/**
 * The conditions of a branch search, checked row by row. A class with every field always set (one shape), so
 * that `accept` is inlined into the scan loops; unused text conditions point at an empty set.
 */
class BranchTest implements RowTest {
  private readonly bankOf: Int32Array;
  private readonly banks: number[];
  private readonly codeBanks: number[] | null;
  private readonly routed: number[];
  private readonly stateOf: Int32Array;
  private readonly state: number;
  private readonly column1: Int32Array | null;
  private readonly in1: TextMembership;
  private readonly column2: Int32Array | null;
  private readonly in2: TextMembership;
  private readonly column3: Int32Array | null;
  private readonly in3: TextMembership;
  private readonly nameOf: Int32Array;
  private readonly eitherBanks: number[] | null;
  private readonly eitherNames: Uint32Array;
  private readonly eitherGeneration: number;

  /** `rowsToCheck`: about how many rows `accept` will be asked of (how the contains filters are checked). */
  constructor(columns: SearchIndexData['branches'], conditions: BranchConditions, rowsToCheck: number) {
    const [t1, t2, t3] = conditions.texts;
    this.bankOf = columns.bank;
    this.banks = conditions.banks;
    this.codeBanks = conditions.code?.banks ?? null;
    this.routed = conditions.code?.routed ?? [];
    this.stateOf = columns.state;
    this.state = conditions.state;
    this.column1 = t1?.column ?? null;
    this.in1 = new TextMembership(t1, rowsToCheck);
    this.column2 = t2?.column ?? null;
    this.in2 = new TextMembership(t2, rowsToCheck);
    this.column3 = t3?.column ?? null;
    this.in3 = new TextMembership(t3, rowsToCheck);
    this.nameOf = columns.branchName;
    this.eitherBanks = conditions.either?.banks ?? null;
    this.eitherNames = conditions.either?.names.stamps ?? NO_STAMPS;
    this.eitherGeneration = conditions.either?.names.generation ?? 0;
  }

  accept(row: number): boolean {
    const bank = this.bankOf[row];
    if (this.banks[bank] !== 1) return false;
    if (this.column1 !== null && !this.in1.has(this.column1[row])) return false;
    if (this.column2 !== null && !this.in2.has(this.column2[row])) return false;
    if (this.column3 !== null && !this.in3.has(this.column3[row])) return false;
    if (this.state >= 0 && this.stateOf[row] !== this.state) return false;
    if (this.codeBanks !== null && this.codeBanks[bank] !== 1 && !this.routed.includes(row)) return false;
    if (
      this.eitherBanks !== null &&
      this.eitherBanks[bank] !== 1 &&
      this.eitherNames[this.nameOf[row]] !== this.eitherGeneration
    )
      return false;
    return true;
  }
}

/** Placeholder stamps for a filter a search does not have (its check is skipped: its column is null). */
const NO_STAMPS = new Uint32Array(1);

/**
 * Whether a text id is one of a contains filter's ids: by its stamp in the filter's IdSet, or, when few rows are to
 * be checked against many ids, by binary search in the ids (stamping them all would cost more than the checks).
 */
class TextMembership {
  private readonly sorted: Int32Array | null = null;
  private readonly stamps: Uint32Array = NO_STAMPS;
  private readonly generation: number = 0;
  constructor(text: Pick<TextCondition, 'ids' | 'set' | 'stamped'> | undefined, rowsToCheck: number) {
    if (!text) return;
    if (rowsToCheck * (Math.log2(text.ids.length + 1) + 1) < text.ids.length) {
      this.sorted = text.ids;
      return;
    }
    if (!text.stamped) text.set.reset(text.ids);
    text.stamped = true;
    this.stamps = text.set.stamps;
    this.generation = text.set.generation;
  }
  has(id: number): boolean {
    const sorted = this.sorted;
    if (sorted === null) return this.stamps[id] === this.generation;
    const at = lowerBound(sorted, 0, sorted.length, id);
    return at < sorted.length && sorted[at] === id;
  }
}

/** What is left to check of an agent name search's candidate: the state, the name (each is the office's row). */
class AgentTest implements RowTest {
  constructor(
    private readonly stateOf: Int32Array,
    /** The state the row must be in; -1: not checked. */
    private readonly state: number,
    private readonly nameOf: Int32Array,
    /** The names the row's must be one of; null: not checked. */
    private readonly names: TextMembership | null,
  ) {}
  accept(row: number): boolean {
    return (
      (this.state < 0 || this.stateOf[row] === this.state) && (this.names === null || this.names.has(this.nameOf[row]))
    );
  }
}

/** The first position in list[from…to-1] (ascending) whose row is at least `row`. */
function lowerBound(list: Int32Array, from: number, to: number, row: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index in list[from…to-1] (ascending) whose value is above `value`; `to` when none is. */
function firstAbove(list: Int32Array, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ranges (ascending) with the adjacent ones joined. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last && last[1] === start) last[1] = end;
    else merged.push([start, end]);
  }
  return merged;
}

/** The accepted rows of ranks offset…offset+limit-1 along the ranges, stopping once they are found. */
function firstMatches(ranges: [number, number][], test: RowTest, offset: number, limit: number): number[] {
  const rows: number[] = [];
  if (limit <= 0) return rows;
  let seen = 0;
  for (const [start, end] of ranges) {
    for (let row = start; row < end; row++) {
      if (!test.accept(row)) continue;
      if (seen++ >= offset) {
        rows.push(row);
        if (rows.length === limit) return rows;
      }
    }
  }
  return rows;
}

/** Every row of the ranges matches: the total is their size, and the page is found by position. */
function pageOfRanges(
  ranges: [number, number][],
  total: number,
  offset: number,
  limit: number,
): { total: number; rows: number[] } {
  const rows: number[] = [];
  let skipped = 0;
  for (const [start, end] of ranges) {
    const size = end - start;
    if (skipped + size <= offset) {
      skipped += size;
      continue;
    }
    for (let row = start + Math.max(0, offset - skipped); row < end && rows.length < limit; row++) rows.push(row);
    skipped += size;
    if (rows.length >= limit) break;
  }
  return { total, rows };
}
