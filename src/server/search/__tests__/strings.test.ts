import { describe, expect, it } from 'vitest';
import { StringTable, shared, toStringTable } from '../strings';
import { TextIndex, buildTrigramIndex } from '../text-index';

// The string tables keep their values as bytes in a SharedArrayBuffer (Latin-1, or UTF-16LE when a value needs
// it); what a search finds in them must be exactly the plain `includes` over the values.

const latin = ['Dhaka', 'Mirpur Road', '', 'Zürich Straße', 'road 10'];
const wide = ['Chattogram', 'চট্টগ্রাম', 'Dhaka – Mirpur', '', '𝔸stral road'];

describe('string tables as bytes', () => {
  it.each([
    ['Latin-1', latin, false],
    ['UTF-16', wide, true],
  ] as const)('%s: gives back every value, shared between threads', (_name, values, isWide) => {
    const data = toStringTable(values);
    expect(data.wide).toBe(isWide);
    expect(data.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(data.offsets.buffer).toBeInstanceOf(SharedArrayBuffer);
    const table = new StringTable(data);
    expect(Array.from({ length: table.size }, (_, id) => table.get(id))).toEqual(values);
    expect(table.orNull(-1)).toBeNull();
  });

  it.each([
    ['Latin-1', latin],
    ['UTF-16', wide],
  ] as const)('%s: a contains search finds what includes finds, and nothing across two values', (_name, values) => {
    const table = new StringTable(toStringTable(values));
    const index = new TextIndex(table, buildTrigramIndex(values));
    const terms = ['road', 'a', '', 'ka', 'Dhaka', 'ß', 'চট্ট', '–', 'aMir', 'kaM', 'Road', '𝔸', 'Ω', 'ürich', 'x'];
    for (const term of terms) {
      const expected = values.flatMap((value, id) => (value.includes(term) ? [id] : []));
      expect([...index.matching(term)], term).toEqual(expected);
    }
  });

  it('a term with a character Latin-1 cannot hold matches nothing in Latin-1 bytes (not its low byte)', () => {
    // U+0144 would be written as 0x44 ("D") by a Latin-1 encoder.
    const index = new TextIndex(new StringTable(toStringTable(latin)), buildTrigramIndex(latin));
    expect([...index.matching('\u0144haka')]).toEqual([]);
    expect([...index.matching('\u0144')]).toEqual([]);
  });

  it('shared() copies a typed array into a SharedArrayBuffer once, and keeps one that is', () => {
    const plain = Int32Array.from([3, -1, 7]);
    const copy = shared(plain);
    expect(copy).toBeInstanceOf(Int32Array);
    expect(copy.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...copy]).toEqual([3, -1, 7]);
    expect(shared(copy)).toBe(copy);
  });
});
