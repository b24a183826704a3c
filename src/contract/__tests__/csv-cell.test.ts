import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fromCsvCell, toCsvCell } from '../csv-cell';

// The one formula escape of every CSV the project writes (npm run export, the portal's CSV, the desk's problem and
// quality CSVs) and its inverse in the importer.

const FORMULA_START = /^[=+\-@\t\r]/;

it('escapes every cell a spreadsheet would read as a formula, signed numbers and phones included', () => {
  for (const value of ['+1+1', '-1+2', '=1+1', '@SUM(A1)', '\t=1', '\r=1', '+52 33 1234 5678', '-5', '+0'])
    expect(toCsvCell(value)).toBe(`'${value}`);
  // An apostrophe already in front of such a start is escaped too, so reading back is one-to-one.
  expect(toCsvCell("'+1+1")).toBe("''+1+1");
});

it('writes plain values and unsigned numbers as they are (codes keep their leading zeros)', () => {
  for (const value of ['010150166', '0', '12.5', 'SONALI BANK', "O'Neil", "'quoted", '1+1', ''])
    expect(toCsvCell(value)).toBe(value);
});

it('reads back what it wrote: import → export → import gives the same value, and no written cell starts a formula', () => {
  const alphabet = fc.constantFrom('=', '+', '-', '@', '\t', '\r', "'", '0', '1', 'a', ' ', '(', ')');
  fc.assert(
    fc.property(fc.string({ unit: alphabet, maxLength: 8 }), (value) => {
      const written = toCsvCell(value);
      expect(written).not.toMatch(FORMULA_START);
      expect(fromCsvCell(written)).toBe(value);
    }),
    { numRuns: 2000 },
  );
});
