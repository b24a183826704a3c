import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { createOpsAccount, multipartUpload, signIn, stageUpload, type OpsSessionCookie } from '../../../testing/ops';
import { createTestApp, openTestStore, type TestApp } from '../../../testing/test-app';
import { cityFromAddress } from '../../domain/address-city';
import { SEED_DIR } from '../../seed/seed';
import { importFile } from '../../desk/shell-import';
import { branchesKind } from '../kinds';
import { readFileRecords } from '../layouts';
import { parseImportFile } from '../read-file';
import { toBranchRow } from '../records';
import { repairReplacementCharacters } from '../repair-text';

// Import files are UTF-8: a byte sequence that is not (a Windows-1252 "é", 0xE9) refuses the file, naming the
// row and the column, through each reader (the import command's, the desk's); never a U+FFFD imported. Text
// the shipped files hold as U+FFFD is repaired by documented rules, and a Nigerian branch's city is one of
// its own state's cities named by its address.

const header = [...branchesKind.columns];
const row = (branchName: string, address: string) => [
  'BD',
  '020',
  'AB BANK LIMITED',
  '020150130',
  branchName,
  address,
  '',
  '',
  'Chattogram',
  'Chattogram',
];
/** A branch file whose third data row (line 4) holds 0xE9 in its address_line1 ("CAFÉ" saved as Windows-1252). */
function latin1File(): Buffer {
  const text = stringify([header, row('ONE', 'A ROAD'), row('TWO', 'B ROAD'), row('THREE', 'CAF@ ROAD')]);
  const [before, after] = text.split('@');
  return Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rpl-encoding-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a file that is not UTF-8 is refused, naming the row and the column', () => {
  it('the reader of the import command and the seed (parseImportFile)', () => {
    const read = parseImportFile('branches.csv', latin1File(), branchesKind.columns);
    expect(read.fileProblems).toEqual([
      expect.objectContaining({ line: 4, column: 'address_line1', rule: 'file.encoding', value: 'CAF\uFFFD ROAD' }),
    ]);
    expect(read.fileProblems[0].reason).toMatch(/not UTF-8/);
  });

  it('the import command refuses the file and applies nothing', async () => {
    const path = join(dir, 'branches.csv');
    writeFileSync(path, latin1File());
    const store = await openTestStore('sqlite', dir);
    try {
      const report = await importFile(store, 'branches', path);
      expect(report.applied).toBe(false);
      expect(report.problems).toEqual([
        expect.objectContaining({ line: 4, column: 'address_line1', reason: expect.stringContaining('not UTF-8') }),
      ]);
    } finally {
      await store.close();
    }
  });

  it("the desk's reader, from a path and from the kept bytes", async () => {
    const path = join(dir, 'desk.csv');
    writeFileSync(path, latin1File());
    for (const source of [path, new Uint8Array(latin1File())]) {
      const read = await readFileRecords(source, 'branches');
      expect(read.fileProblems).toEqual([
        expect.objectContaining({ line: 4, column: 'address_line1', rule: 'file.encoding' }),
      ]);
    }
  });

  it('a valid file holding U+FFFD as text is read (and repaired), not refused', () => {
    const text = stringify([header, row('ONE', 'IBADAN, AGODI \uFFFD UCH')]);
    const read = parseImportFile('branches.csv', Buffer.from(text), branchesKind.columns);
    expect(read.fileProblems).toEqual([]);
    expect(read.records[0].record.address_line1).toBe('IBADAN, AGODI \uFFFD UCH');
  });
});

describe('the desk upload over HTTP', () => {
  let t: TestApp;
  let maker: OpsSessionCookie;
  let checker: OpsSessionCookie;
  beforeAll(async () => {
    t = await createTestApp({ uploads: { dir: join(dir, 'uploads') } });
    await createOpsAccount(t.app, 'alice', ['maker']);
    await createOpsAccount(t.app, 'bob', ['checker']);
    maker = await signIn(t.app, 'alice');
    checker = await signIn(t.app, 'bob');
  });
  afterAll(async () => {
    await t.close();
  });

  it('an upload with a byte that is not UTF-8 is refused: the problem names row 4 and address_line1', async () => {
    const detail = await stageUpload(
      t.app,
      maker,
      checker,
      multipartUpload({ kind: 'branches' }, 'latin1.csv', latin1File()),
    );
    expect(detail.approvable).toBe(false);
    const problems = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/ops/changes/${detail.id}/problems`,
        headers: { cookie: checker.cookie },
      })
    ).json() as { data: { row: number | null; column: string | null; message: string; value: string | null }[] };
    expect(problems.data).toEqual([
      expect.objectContaining({ row: 4, column: 'address_line1', message: expect.stringMatching(/not UTF-8/) }),
    ]);
  });
});

describe('U+FFFD in the shipped text, repaired by rule', () => {
  it.each([
    ['IBADAN, AGODI \uFFFD UCH', 'IBADAN, AGODI – UCH'],
    ['Onitsha \uFFFD Owerri Road', 'Onitsha – Owerri Road'],
    ['OPPOSITE ST MARY\uFFFDS CATHOLIC CHURCH', 'OPPOSITE ST MARY’S CATHOLIC CHURCH'],
    ['Alaba Int\uFFFDl Mkt', 'Alaba Int’l Mkt'],
    ['PLOT C14 AREA \uFFFDA\uFFFD WORLD BANK', 'PLOT C14 AREA ‘A’ WORLD BANK'],
    ['R4 MERCY CAF\uFFFD, ASPAMDA PLAZA', 'R4 MERCY CAFÉ, ASPAMDA PLAZA'],
    ['29, EDO EZEMEWI ROAD, NNEWI,\uFFFD ANAMBRA STATE.', '29, EDO EZEMEWI ROAD, NNEWI, ANAMBRA STATE.'],
    ['ABEOKUTA\uFFFD\uFFFD\uFFFD\uFFFD (2)', 'ABEOKUTA (2)'],
    ['DUGBE, IBADAN\uFFFD\uFFFD', 'DUGBE, IBADAN'],
  ])('%s → %s', (published, repaired) => {
    expect(repairReplacementCharacters(published)).toBe(repaired);
  });

  it('no text of the shipped branch files keeps a U+FFFD once read', () => {
    const text = readFileSync(join(SEED_DIR, 'bank-branches', 'NG.csv'), 'utf8');
    expect(text).toContain('\uFFFD'); // as published
    const read = parseImportFile('NG.csv', Buffer.from(text), branchesKind.columns);
    const rows = read.records.map((r) => toBranchRow(branchesKind.schema.parse(r.record), () => 'OY'));
    expect(rows.filter((r) => JSON.stringify(r).includes('\uFFFD'))).toEqual([]);
  });
});

describe("a Nigerian branch's city: one of its own state's, named by its address", () => {
  it('IBADAN in an Oyo branch address is Ibadan', () => {
    expect(cityFromAddress('NG', 'OY', ['IBADAN, AGODI – UCH'])).toBe('Ibadan');
    expect(cityFromAddress('NG', 'OY', ['opposite oyo state secretariat ,Agodi Ibadan'])).toBe('Ibadan');
    // The trailing state name is the state, not its town Oyo.
    expect(cityFromAddress('NG', 'OY', ['23/25 Lebanon Street, Dugbe, Ibadan, Oyo'])).toBe('Ibadan');
    expect(cityFromAddress('NG', 'OY', ['12, MARKET ROAD, OYO, OYO STATE.'])).toBe('Oyo');
  });

  it('an "Ibadan Road" in Lagos state does not make a Lagos branch an Ibadan branch', () => {
    expect(cityFromAddress('NG', 'LA', ['12, IBADAN ROAD, IKEJA, LAGOS STATE.'])).toBe('Ikeja');
    expect(cityFromAddress('NG', 'LA', ['IBADAN ROAD'])).toBeNull();
    // Within Ibadan's own state a road named after a town does not name the town either.
    expect(cityFromAddress('NG', 'OY', ['OGBOMOSO ROAD, IBADAN'])).toBe('Ibadan');
    expect(cityFromAddress('NG', 'OS', ['73, GBONGAN-IBADAN ROAD, OLOSAN BUS-STOP'])).toBeNull();
  });

  it('the seeded rows: every Ibadan branch is in Oyo, and the imported row gets its city', () => {
    const record = branchesKind.schema.parse({
      country: 'NG',
      bank_code: '044',
      bank_name: 'ACCESS BANK PLC',
      routing_number: '',
      branch_name: 'IBADAN ROAD',
      address_line1: '19, IBADAN ROAD, IJEBU-ODE, OGUN STATE.',
      address_line2: 'Ogun State, Nigeria',
      city: '',
      district: '',
      state: 'Ogun',
    });
    expect(toBranchRow(record, () => 'OG')).toMatchObject({ state: 'OG', city: 'Ijebu-Ode' });
  });
});
