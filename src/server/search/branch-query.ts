import { placeNameVariants, type BankBranch, type Page } from '../../contract';
import { pageOf, type BranchSearch } from '../store/store';
import { codeHash, placeFilters, type OfficeEntry, type SearchIndexData } from './index-data';
import { TextIndex, postingsRows, type PostingsData } from './text-index';
import { pageOfRanks } from './select';
import {
  BINARY_SEARCH_COST,
  POSTINGS_ROW_COST,
  RANGED_POSTING_COST,
  firstAbove,
  firstMatches,
  lowerBound,
  mergeRanges,
  pageOfRanges,
  BranchTest,
  type BranchConditions,
  type Candidates,
} from './row-scan';
import { HEAD_OFFICE_CODE, HEAD_OFFICE_AT, IndexCore, type Answer } from './index-core';

// A search is a scope (the rows of some bank-name groups, or of some head offices: contiguous ranges in answer
// order) and conditions checked row by row (bank, code, state, the contains filters as sets of matching text
// ids). The rows to check come from the cheaper of: the scope's ranges, or the postings (rows by text) of one
// contains filter. Ranges are visited in answer order, so counting all matches and keeping the page's rows is
// one pass; postings are not, so the matches are gathered and the page's ranks selected.

/** Bank-name filters remembered (banksNamed), each an array of one number per bank. */
const NAMED_BANKS_KEPT = 1024;

export class BranchQuery extends IndexCore {
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
    for (const [name, term] of placeFilters(search)) {
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
  protected matchingAny(index: TextIndex, terms: string[]): Int32Array {
    if (terms.length === 1) return index.matching(terms[0]);
    return Int32Array.from(new Set(terms.flatMap((term) => [...index.matching(term)]))).sort();
  }

  /** 1 for the banks a head office pays into (its country's banks with one of its bank codes); not to be changed. */
  protected banksOfOffice(office: OfficeEntry & { index: number }): readonly number[] {
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
  protected banksWhere(country: string, keep: (bank: SearchIndexData['banks'][number]) => boolean): number[] {
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
  protected branchRows(
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
      // scanning every row (below) would count the total again.
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
   * never read: the postings say the text, and the ranges (whole banks) say the bank (reading the columns of rows
   * reached through postings costs a cache miss or two a row; a row scanned along a range, almost nothing).
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
}
