// How a search checks rows: the conditions, the row tests the scan loops call, and range helpers.

import type { SearchIndexData } from './index-data';
import { IdSet, type PostingsData } from './text-index';

/**
 * Checking a row reached through postings costs about this much more than a row visited in a range: the
 * columns are read out of order (cache misses), and the matches are gathered and then selected.
 */
export const POSTINGS_ROW_COST = 3;
/**
 * A posting walked against the ranges (postingsInRanges: no column read, a copy per run inside a range) costs
 * about this much more than a row visited in a range.
 */
export const RANGED_POSTING_COST = 1;
/** Counting one text's rows inside one range (two binary searches) costs about this many rows scanned. */
export const BINARY_SEARCH_COST = 24;

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
export type Candidates =
  { ranges: [number, number][] } | { postings: PostingsData; ids: ArrayLike<number> } | { rows: Int32Array };

export interface BranchConditions {
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

export interface RowTest {
  accept(row: number): boolean;
}

/**
 * The conditions of a branch search, checked row by row. A class with every field always set (one shape), so
 * that `accept` is inlined into the scan loops; unused text conditions point at an empty set.
 */
export class BranchTest implements RowTest {
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
export class TextMembership {
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
export class AgentTest implements RowTest {
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
export function lowerBound(list: Int32Array, from: number, to: number, row: number): number {
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
export function firstAbove(list: Int32Array, from: number, to: number, value: number): number {
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
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last && last[1] === start) last[1] = end;
    else merged.push([start, end]);
  }
  return merged;
}

/** The accepted rows of ranks offset…offset+limit-1 along the ranges, stopping once they are found. */
export function firstMatches(ranges: [number, number][], test: RowTest, offset: number, limit: number): number[] {
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
export function pageOfRanges(
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
