import { expect, it } from 'vitest';
import { toCsv } from '../export-csv-button';

it('writes a header row and quotes values holding commas, quotes or line breaks', () => {
  const rows = [
    { code: 'BRACBD', name: 'BRAC BANK LIMITED', address: 'Dhaka, Dhaka Division' },
    { code: 'SONLBD', name: 'SONALI "BANK"', address: null },
  ];
  const csv = toCsv(rows, [
    { header: 'Head office code', value: (r) => r.code },
    { header: 'Name', value: (r) => r.name },
    { header: 'Address', value: (r) => r.address },
  ]);
  expect(csv).toBe('Head office code,Name,Address\nBRACBD,BRAC BANK LIMITED,"Dhaka, Dhaka Division"\nSONLBD,"SONALI ""BANK""",\n');
});
