import { expect, it } from 'vitest';
import { toCsv } from '../csv';
import { exportFileName } from '../export-csv-button';

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
  expect(csv).toBe(
    'Head office code,Name,Address\nBRACBD,BRAC BANK LIMITED,"Dhaka, Dhaka Division"\nSONLBD,"SONALI ""BANK""",\n',
  );
});

// The CSV is the import format, so codes are written as they are (no `="…"`: they re-import unchanged; the XLSX
// export is the one for spreadsheets); every cell a spreadsheet could run as a formula gets the apostrophe the
// importer removes, a phone number with its sign included.
it('writes codes as they are, neutralises formula-looking cells and phones, and names the filters', () => {
  const csv = toCsv(
    [{ code: '010150166', phone: '+52 33 1234 5678', note: '=HYPERLINK("x")' }],
    [
      { header: 'Routing number', value: (r) => r.code, code: true },
      { header: 'Phone', value: (r) => r.phone },
      { header: 'Note', value: (r) => r.note },
    ],
  );
  expect(csv.split('\n')[1]).toBe(`010150166,'+52 33 1234 5678,"'=HYPERLINK(""x"")"`);
  expect(
    exportFileName(
      'agents',
      { receivingCountry: 'MX', deliveryMode: '01', state: 'JAL', search: 'OXXO Zapopan' },
      233,
      233,
    ),
  ).toBe('agents_receivingCountry-MX_deliveryMode-01_state-JAL_search-OXXO-Zapopan_all-233.csv');
});
