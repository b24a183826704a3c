import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';
import { IFSC_PUBLIC_COLUMNS } from '../../../contract/ops-files';
import type { DataSet } from '../../domain/data-set';
import { buildSeedDataSet, readSeedFiles } from '../../seed/seed';
import { branchesKind } from '../kinds';
import { countByRule, detectFileLayout, readFileRecords, toOpsProblem } from '../layouts';
import { validateRecords } from '../validate';
import { writeLargeBangladeshBranchFile } from '../../../testing/large-branch-file';
import { xlsxSharedStringsBomb } from '../../../testing/zip';

// The desk's readers on real files: XLSX written by exceljs (small and real-size, read streamed),
// the public IFSC layout of India, a zip bomb and formula cells refused; every record then validated by the
// importer's own rules against the seeded data set.

let dir: string;
let served: DataSet;
const seedIndia = () => readSeedFiles().branchFiles.find((f) => f.source.file === 'IN.csv')!.records;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'readers-'));
  served = buildSeedDataSet();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function writeXlsx(path: string, rows: Iterable<(string | number | ExcelJS.CellValue)[]>) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const sheet = workbook.addWorksheet('branches');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
}

const validate = (records: Parameters<typeof validateRecords>[1]) =>
  validateRecords(branchesKind, records, branchesKind.prepare(served));

/** Public IFSC layout rows made from the shipped India extract (what razorpay's IFSC.csv gives per branch). */
function* ifscRows(count: number, serialFrom?: number) {
  const india = seedIndia();
  for (let i = 0; i < count; i++) {
    const r = india[i % india.length];
    const ifsc =
      serialFrom === undefined ? r.routing_number : `${r.bank_code}0${String(serialFrom + i).padStart(6, '0')}`;
    yield {
      BANK: r.bank_name,
      IFSC: ifsc,
      BRANCH: r.branch_name,
      CENTRE: r.district,
      DISTRICT: r.district,
      STATE: r.state,
      ADDRESS: r.address_line1,
      CONTACT: i % 3 ? '+912222222222' : '',
      IMPS: 'true',
      RTGS: i % 2 ? 'true' : 'false',
      CITY: r.city,
      ISO3166: 'IN-MH',
      NEFT: 'true',
      MICR: i % 4 ? '400002011' : 'NA',
      UPI: 'false',
      SWIFT: '',
    };
  }
}

describe('XLSX, read streamed', () => {
  it('reads a small workbook in the import format and validates it with the importer rules', async () => {
    const path = join(dir, 'small.xlsx');
    await writeXlsx(path, [
      [...branchesKind.columns],
      [
        'BD',
        '020',
        'AB BANK LIMITED',
        '020150130',
        'AGRABAD',
        'AGRABAD BRANCH',
        'Chattogram',
        '',
        'Chattogram',
        'Chattogram',
      ],
      ['BD', '020', '', '02015013X', 'BAD', '', '', '', 'Chattogram', 'Nowhere'],
      [],
      ['BD', 20, 'AB BANK LIMITED', 20150131, 'NUMBERS', '', '', '', 'Chattogram', 'Chattogram'],
    ]);
    const read = await readFileRecords(path, 'branches');
    expect(read.fileProblems).toEqual([]);
    expect(read.format).toBe('xlsx');
    expect(read.layout).toBe('import');
    expect(read.records.map((r) => r.line)).toEqual([2, 3, 5]);
    expect(read.records[0].record).toMatchObject({ country: 'BD', bank_code: '020', routing_number: '020150130' });
    // A number cell is its digits: leading zeros lost by the spreadsheet are reported, not guessed back.
    expect(read.records[2].record.bank_code).toBe('20');

    const validation = validate(read.records);
    expect(validation.rowsValid).toBe(1);
    const row3 = validation.problems.filter((p) => p.line === 3);
    // Every fault of the row, each with the value that failed.
    expect(row3.map((p) => [p.column, p.value])).toEqual(
      expect.arrayContaining([
        ['bank_name', ''],
        ['routing_number', '02015013X'],
        ['state', 'Nowhere'],
      ]),
    );
    expect(row3.every((p) => p.rule)).toBe(true);
    expect(countByRule(validation.problems).reduce((n, c) => n + c.count, 0)).toBe(validation.problems.length);
    expect(validation.problems.map(toOpsProblem).find((p) => p.column === 'state')).toMatchObject({
      row: 3,
      value: 'Nowhere',
      rule: 'state.unknown',
    });
  });

  it('refuses formula cells, naming the cell and the formula, and never passes their value on', async () => {
    const path = join(dir, 'formula.xlsx');
    await writeXlsx(path, [
      [...branchesKind.columns],
      [
        'BD',
        '020',
        { formula: 'HYPERLINK("http://evil.example","AB BANK")', result: 'AB BANK LIMITED' },
        '020150130',
        'AGRABAD',
        '',
        '',
        '',
        'Chattogram',
        'Chattogram',
      ],
    ]);
    const read = await readFileRecords(path, 'branches');
    expect(read.records).toHaveLength(1);
    const [record] = read.records;
    expect(record.record.bank_name).toBe('');
    expect(record.problems).toEqual([
      expect.objectContaining({
        line: 2,
        rule: 'xlsx.formula',
        value: '=HYPERLINK("http://evil.example","AB BANK")',
        reason: expect.stringContaining('cell C2'),
      }),
    ]);
    const validation = validate(read.records);
    expect(validation.rowsValid).toBe(0);
    expect(validation.problems.map((p) => p.rule)).toContain('xlsx.formula');
  });

  it('refuses a zip bomb once the inflated bytes pass the limit, with memory bounded', async () => {
    const path = join(dir, 'bomb.xlsx');
    const GIB = 1024 * 1024 * 1024;
    const bytes = await xlsxSharedStringsBomb(1024);
    writeFileSync(path, bytes);
    expect(bytes.length).toBeLessThan(5 * 1024 * 1024);

    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    const read = await readFileRecords(path, 'branches', undefined, { maxUnpackedBytes: 64 * 1024 * 1024 });
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);

    expect(read.records).toEqual([]);
    expect(read.fileProblems).toEqual([
      expect.objectContaining({
        rule: 'xlsx.unpacked-size',
        reason: expect.stringMatching(/more than 67108864 bytes/),
      }),
    ]);
    // Loose: the read stopped near 64 MiB of XML, far from the 1 GiB the file unpacks to.
    expect(peakRss - before.rss).toBeLessThan(0.5 * GIB);
  });

  it('reads a real-size workbook (100,000 branches) streamed and validates every row', async () => {
    const csvPath = join(dir, 'large.csv');
    await writeLargeBangladeshBranchFile(csvPath, 100_000, 'XLSX');
    const fromCsv = await readFileRecords(csvPath, 'branches');
    const path = join(dir, 'large.xlsx');
    await writeXlsx(path, [
      [...branchesKind.columns],
      ...fromCsv.records.map((r) => branchesKind.columns.map((c) => r.record[c])),
    ]);
    const read = await readFileRecords(path, 'branches');
    expect(read.fileProblems).toEqual([]);
    expect(read.records).toHaveLength(100_000);
    expect(read.records.map((r) => r.record)).toEqual(fromCsv.records.map((r) => r.record));
    const validation = validate(read.records);
    expect(validation.problems.slice(0, 3)).toEqual([]);
    expect(validation.rowsValid).toBe(100_000);
  }, 180_000);
});

describe('the public IFSC layout of India', () => {
  it('is detected by its header, mapped onto the branch columns and validated', async () => {
    const rows = [...ifscRows(50)];
    const path = join(dir, 'IFSC.csv');
    writeFileSync(path, stringify(rows, { header: true, columns: [...IFSC_PUBLIC_COLUMNS] }));

    const detected = await detectFileLayout(path, 'branches');
    expect(detected).toMatchObject({ layout: 'ifsc-public', format: 'csv', missingRequired: [] });
    expect('header' in detected && detected.header).toEqual([...IFSC_PUBLIC_COLUMNS]);

    const read = await readFileRecords(path, 'branches');
    expect(read.layout).toBe('ifsc-public');
    expect(read.fileProblems).toEqual([]);
    const india = seedIndia();
    read.records.forEach((r, i) => {
      const seed = india[i];
      expect(r.record).toMatchObject({
        country: 'IN',
        bank_code: seed.routing_number.slice(0, 4),
        bank_name: seed.bank_name,
        routing_number: seed.routing_number,
        branch_name: seed.branch_name,
        address_line1: seed.address_line1,
        district: seed.district,
        state: seed.state,
      });
    });
    const validation = validate(read.records);
    expect(validation.problems).toEqual([]);
    expect(validation.rowsValid).toBe(50);
  });

  it('reads a real-size list (170,000 branches, about the published list) with every row valid', async () => {
    const path = join(dir, 'IFSC-large.csv');
    writeFileSync(path, stringify([...ifscRows(170_000, 1)], { header: true, columns: [...IFSC_PUBLIC_COLUMNS] }));
    const read = await readFileRecords(path, 'branches');
    expect(read.fileProblems).toEqual([]);
    expect(read.records).toHaveLength(170_000);
    const validation = validate(read.records);
    expect(validation.problems.slice(0, 3)).toEqual([]);
    expect(validation.rowsValid).toBe(170_000);
  }, 120_000);

  it('any other header: detected as mapped, with a suggested mapping the maker confirms', async () => {
    const path = join(dir, 'other.xlsx');
    await writeXlsx(path, [
      ['Bank Name', 'IFSC Code', 'Branch', 'Address', 'District', 'State', 'Remarks'],
      [
        'ABHYUDAYA COOPERATIVE BANK LIMITED',
        'ABHY0065002',
        'ABHYUDAYA NAGAR',
        'MUMBAI 400033',
        'GREATER MUMBAI',
        'MAHARASHTRA',
        'x',
      ],
    ]);
    const detected = await detectFileLayout(path, 'branches');
    expect(detected).toMatchObject({
      layout: 'mapped',
      format: 'xlsx',
      suggestedMapping: {
        'Bank Name': 'bank_name',
        'IFSC Code': 'routing_number',
        Branch: 'branch_name',
        Address: 'address_line1',
        District: 'district',
        State: 'state',
      },
      missingRequired: ['country', 'bank_code'],
      sample: [
        [
          'ABHYUDAYA COOPERATIVE BANK LIMITED',
          'ABHY0065002',
          'ABHYUDAYA NAGAR',
          'MUMBAI 400033',
          'GREATER MUMBAI',
          'MAHARASHTRA',
          'x',
        ],
      ],
    });
    if (!('suggestedMapping' in detected)) throw new Error('not detected');

    // Without a mapping the file is refused; with the suggested one and the country, it reads and validates.
    expect((await readFileRecords(path, 'branches')).fileProblems[0]).toMatchObject({ rule: 'header.mapping-needed' });
    const read = await readFileRecords(path, 'branches', {
      layout: 'mapped',
      mapping: detected.suggestedMapping,
      country: 'IN',
    });
    expect(read.fileProblems).toEqual([]);
    expect(read.records[0].record).toMatchObject({ country: 'IN', bank_code: 'ABHY', routing_number: 'ABHY0065002' });
    expect(validate(read.records).problems).toEqual([]);

    const wrong = await readFileRecords(path, 'branches', {
      layout: 'mapped',
      mapping: { Nope: 'bank_name', Branch: 'colour' },
    });
    expect(wrong.fileProblems.map((p) => p.rule)).toEqual(
      expect.arrayContaining(['mapping.heading', 'mapping.field', 'mapping.required']),
    );
  });
});
