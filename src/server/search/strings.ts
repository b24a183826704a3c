// Strings as the search index holds them: one long string per column with the offsets of its values, so a
// column of a million values is two objects (cheap to build in the worker, to post to the main thread and to
// keep), and a value is sliced out only when an answer shows it or a search checks it.

/**
 * A string table as posted between threads: the values, each followed by a NUL (which no served text holds:
 * control characters are refused), so that a search through the whole text never matches across two values.
 * Value `i` starts at offsets[i]; `offsets` has one entry more than there are values.
 */
export interface StringTableData {
  text: string;
  offsets: Uint32Array;
}

export const SEPARATOR = '\u0000';

export class StringTable {
  readonly size: number;
  readonly text: string;
  readonly offsets: Uint32Array;
  constructor(data: StringTableData) {
    this.size = data.offsets.length - 1;
    this.text = data.text;
    this.offsets = data.offsets;
  }
  get(id: number): string {
    return this.text.slice(this.offsets[id], this.offsets[id + 1] - 1);
  }
  /** The id of the value holding the text position `at` (binary search). */
  idAt(at: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.offsets[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  /** The value of an id column's entry, null for -1 (a column's null). */
  orNull(id: number): string | null {
    return id < 0 ? null : this.get(id);
  }
}

export function toStringTable(values: readonly string[]): StringTableData {
  const offsets = new Uint32Array(values.length + 1);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    offsets[i] = at;
    at += values[i].length + 1;
  }
  offsets[values.length] = at;
  return { text: values.length ? values.join(SEPARATOR) + SEPARATOR : '', offsets };
}

/**
 * Compares by Unicode code point, as SQLite's BINARY collation (UTF-8 bytes) and PostgreSQL's "C" collation
 * order text. JavaScript's `<` compares UTF-16 code units, which puts U+E000–U+FFFF after astral characters.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        // Surrogates (astral characters) sort after U+E000–U+FFFF.
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Distinct values of a column in first-seen order, each with an id; null stays null (id -1). */
export class Dictionary {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  id(value: string | null | undefined): number {
    if (value === null || value === undefined) return -1;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }
}
