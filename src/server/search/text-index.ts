import { StringTable } from './strings';

// Contains searches over a column's distinct texts. A trigram index (texts by the three-character runs they
// hold) picks the texts that can contain a term; the term is then looked for in the column's block of bytes
// (strings.ts: Buffer's native `indexOf`, from candidate to candidate), so the answer is exactly the plain
// contains, for any term: wildcards and quotes are plain characters here. Terms shorter than a trigram search the
// whole block, a native scan of a few megabytes at most.

/** Texts by trigram, as posted between threads: sorted keys, and the ids of each key's texts (ascending). */
export interface TrigramIndexData {
  keys: Int32Array;
  offsets: Uint32Array;
  ids: Int32Array;
}

/**
 * A trigram as a small integer (a V8 small integer: fast map keys). Exact for characters below U+03DF, which
 * covers the Latin scripts of the data; other trigrams may share a key, which only adds candidates: every
 * candidate is checked against the text.
 */
const trigramKey = (text: string, at: number) =>
  (text.charCodeAt(at) * 1_000_003 + text.charCodeAt(at + 1) * 1009 + text.charCodeAt(at + 2)) & 0x3fffffff;

export function buildTrigramIndex(texts: readonly string[]): TrigramIndexData {
  // Ids of each key's texts, pushed in id order; a text's repeated trigram is the last id pushed.
  const lists = new Map<number, number[]>();
  let total = 0;
  texts.forEach((text, id) => {
    for (let at = 0; at + 3 <= text.length; at++) {
      const key = trigramKey(text, at);
      let list = lists.get(key);
      if (!list) lists.set(key, (list = []));
      if (list[list.length - 1] !== id) {
        list.push(id);
        total++;
      }
    }
  });
  const keys = Int32Array.from(lists.keys()).sort();
  const offsets = new Uint32Array(keys.length + 1);
  const ids = new Int32Array(total);
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    offsets[i] = at;
    const list = lists.get(keys[i])!;
    ids.set(list, at);
    at += list.length;
  }
  offsets[keys.length] = at;
  return { keys, offsets, ids };
}

/** Rows (positions in answer order, ascending) by the id of their value in one column, as posted between threads. */
export interface PostingsData {
  offsets: Uint32Array;
  rows: Int32Array;
}

/** Groups the rows by their id in `column` (ids 0…distinct-1; -1, a null, is left out). */
export function buildPostings(column: Int32Array, distinct: number): PostingsData {
  const offsets = new Uint32Array(distinct + 1);
  for (let row = 0; row < column.length; row++) if (column[row] >= 0) offsets[column[row] + 1]++;
  for (let id = 0; id < distinct; id++) offsets[id + 1] += offsets[id];
  const rows = new Int32Array(offsets[distinct]);
  const cursor = offsets.slice(0, distinct);
  for (let row = 0; row < column.length; row++) if (column[row] >= 0) rows[cursor[column[row]]++] = row;
  return { offsets, rows };
}

/** How many rows the texts `ids` have in all. */
export function postingsRows(postings: PostingsData, ids: ArrayLike<number>): number {
  let rows = 0;
  for (let i = 0; i < ids.length; i++) rows += postings.offsets[ids[i] + 1] - postings.offsets[ids[i]];
  return rows;
}

/**
 * A set of ids for one search, reused from search to search: a search is synchronous, so marking a new
 * generation empties it in O(1). `has(-1)` (a null) is false.
 */
export class IdSet {
  readonly stamps: Uint32Array;
  generation = 0;
  constructor(size: number) {
    this.stamps = new Uint32Array(Math.max(size, 1));
  }
  /** Empties the set, then adds the ids. */
  reset(ids: ArrayLike<number> = []): this {
    if (++this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    for (let i = 0; i < ids.length; i++) this.stamps[ids[i]] = this.generation;
    return this;
  }
  has(id: number): boolean {
    return this.stamps[id] === this.generation;
  }
}

/** Ids kept in the remembered matches of one text index, at most (4 bytes each). */
const REMEMBERED_IDS = 1 << 21;

export class TextIndex {
  /**
   * The texts matching recent terms. Tellers search the same few words all day (a network, a town), and a
   * common word can match tens of thousands of distinct texts; remembering which spares finding them again.
   * Only this step is remembered: every search still counts and pages its rows. Dies with the index (one data
   * version), bounded by REMEMBERED_IDS, oldest first out.
   */
  private readonly remembered = new Map<string, Int32Array>();
  private rememberedIds = 0;

  constructor(
    readonly texts: StringTable,
    private readonly trigrams: TrigramIndexData,
  ) {}

  /** Ids of the texts that contain `term` (ascending). */
  matching(term: string): Int32Array {
    const known = this.remembered.get(term);
    if (known) return known;
    if (!this.texts.canHold(term)) return new Int32Array(0);
    const ids = term.length < 3 ? this.scanned(term) : this.found(term);
    this.remember(term, ids);
    return ids;
  }

  /** The terms remembered, oldest first. */
  rememberedTerms(): string[] {
    return [...this.remembered.keys()];
  }

  /**
   * Keeps the texts matching `term`: found here, or by the index worker for this same index (a new index
   * starts with the matches of the terms its predecessor remembered, found off the event loop).
   */
  remember(term: string, ids: Int32Array): void {
    if (ids.length > REMEMBERED_IDS / 4 || this.remembered.has(term)) return;
    this.remembered.set(term, ids);
    this.rememberedIds += ids.length;
    for (const [oldest, oldIds] of this.remembered) {
      if (this.rememberedIds <= REMEMBERED_IDS) break;
      this.remembered.delete(oldest);
      this.rememberedIds -= oldIds.length;
    }
  }

  private found(term: string): Int32Array {
    const { keys, offsets, ids } = this.trigrams;
    // The shortest list of the term's trigrams holds every text that can contain it.
    let from = 0;
    let to = ids.length + 1;
    for (let at = 0; at + 3 <= term.length; at++) {
      const slot = binarySearch(keys, trigramKey(term, at));
      if (slot < 0) return new Int32Array(0);
      if (offsets[slot + 1] - offsets[slot] < to - from) {
        from = offsets[slot];
        to = offsets[slot + 1];
      }
    }
    const { texts } = this;
    const starts = texts.offsets;
    const matched: number[] = [];
    // `hit`: the next occurrence at or after the current candidate's start; it also skips the candidates
    // before the text it lies in.
    let hit = -1;
    for (let i = from; i < to; i++) {
      const id = ids[i];
      const start = starts[id];
      if (hit < start) {
        hit = texts.find(term, start);
        if (hit < 0) break;
      }
      if (hit < starts[id + 1]) matched.push(id);
    }
    return Int32Array.from(matched);
  }

  /** Every text holding a term too short for trigrams, by searching the whole text once. */
  private scanned(term: string): Int32Array {
    const { texts } = this;
    const matched: number[] = [];
    for (let hit = texts.find(term); hit >= 0;) {
      const id = texts.idAt(hit);
      matched.push(id);
      hit = texts.find(term, texts.offsets[id + 1]);
    }
    return Int32Array.from(matched);
  }
}

function binarySearch(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid];
    if (at === value) return mid;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
