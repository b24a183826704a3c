// Strings as the search index holds them: one block of bytes per column with the offsets of its values, so a
// column of a million values is two typed arrays, and a value is decoded only when an answer shows it or a search
// checks it. The bytes live outside the JavaScript heap, in a SharedArrayBuffer: the serving threads answer from
// the same bytes (none is copied when an index is handed to them), and a full garbage collection never walks
// them (at a swap, V8 would mark both indexes' string tables: most of the swap's stall).

/**
 * A string table as posted between threads: the values, each followed by a NUL (which no served text holds:
 * control characters are refused), so that a search through the whole block never matches across two values.
 * Latin-1 (one byte a character) when every value fits, else UTF-16LE (two bytes a code unit: `wide`). Value
 * `i` starts at byte offsets[i]; `offsets` has one entry more than there are values.
 */
export interface StringTableData {
  bytes: Uint8Array;
  offsets: Uint32Array;
  wide: boolean;
}

export class StringTable {
  readonly size: number;
  readonly offsets: Uint32Array;
  /** The bytes as a Buffer (no copy): Buffer's decoding and searching work on any encoding's bytes. */
  readonly bytes: Buffer;
  readonly encoding: 'latin1' | 'utf16le';
  /** Bytes a code unit, and a separator's. */
  readonly unit: 1 | 2;
  constructor(data: StringTableData) {
    this.size = data.offsets.length - 1;
    this.offsets = data.offsets;
    this.bytes = Buffer.from(data.bytes.buffer, data.bytes.byteOffset, data.bytes.byteLength);
    this.encoding = data.wide ? 'utf16le' : 'latin1';
    this.unit = data.wide ? 2 : 1;
  }
  get(id: number): string {
    return this.bytes.toString(this.encoding, this.offsets[id], this.offsets[id + 1] - this.unit);
  }
  /**
   * Whether a value can hold `term` at all: a term with a character Latin-1 bytes cannot hold is in none of them
   * (and `find` would look for another byte instead). Ask before `find`.
   */
  canHold(term: string): boolean {
    return this.unit === 2 || !BEYOND_LATIN1.test(term);
  }
  /** The byte position of `term`'s first occurrence at or after byte `from`, -1 when there is none. */
  find(term: string, from = 0): number {
    if (from >= this.bytes.length) return -1;
    if (term === '') return from;
    return this.bytes.indexOf(term, from, this.encoding);
  }
  /** The id of the value holding the byte position `at` (binary search). */
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

/** A character outside Latin-1 (any UTF-16 unit above U+00FF). */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/** A SharedArrayBuffer-backed copy of `view` (the same type and length), or `view` itself when it already is. */
export function shared<T extends ArrayBufferView>(view: T): T {
  if (view.buffer instanceof SharedArrayBuffer) return view;
  const View = view.constructor as new (buffer: SharedArrayBuffer, at: number, length: number) => T;
  const perElement = (view as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  const copy = new View(new SharedArrayBuffer(view.byteLength), 0, view.byteLength / perElement);
  new Uint8Array(copy.buffer).set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  return copy;
}

export function toStringTable(values: readonly string[]): StringTableData {
  const wide = values.some((value) => BEYOND_LATIN1.test(value));
  const unit = wide ? 2 : 1;
  const offsets = new Uint32Array(values.length + 1);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    offsets[i] = at;
    at += (values[i].length + 1) * unit;
  }
  offsets[values.length] = at;
  const bytes = new Uint8Array(new SharedArrayBuffer(at));
  const buffer = Buffer.from(bytes.buffer);
  const encoding = wide ? 'utf16le' : 'latin1';
  // Each value, then its NUL: the block starts zeroed, so the separators are already there.
  for (let i = 0; i < values.length; i++) buffer.write(values[i], offsets[i], encoding);
  return { bytes, offsets: shared(offsets), wide };
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
