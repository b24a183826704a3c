import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';
import { problem } from '../../../../../contract';
import { changeDetail, changeSummary, diffEntry, opsPage } from '../../../../../contract/ops-changes';
import { detectedLayout, IFSC_PUBLIC_COLUMNS } from '../../../../../contract/ops-files';
import { buildApp } from '../../../../app';
import { branchesKind } from '../../../../importer/kinds';
import { readSeedFiles } from '../../../../seed/seed';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import { createOpsAccount, signIn, type OpsSessionCookie } from '../../../../../testing/ops';
import { editedBangladesh, type Cells } from '../../../../desk/__tests__/fixtures';
import { xlsxSharedStringsBomb } from '../../../../../testing/zip';

// The desk's file formats over HTTP, through the real app on both stores: an XLSX branch file, the
// public IFSC list of India and a file read through a maker's column mapping are staged and diffed against the
// published data; formula cells and a zip bomb are refused with the cell named, nothing of them published;
// POST /v1/ops/files/detect tells the layout.

const BOUNDARY = '----rpl-files-boundary';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
function multipart(fields: Record<string, string>, fileName: string, content: Buffer, type = 'text/csv'): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.concat([
    Buffer.from(
      parts.join('') +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
const multipartType = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

async function xlsxOf(rows: (string | ExcelJS.CellValue)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('branches');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const seedIndia = () => readSeedFiles().branchFiles.find((f) => f.source.file === 'IN.csv')!.records;

/** The shipped India extract in the public IFSC layout; `extra` rows appended. */
function ifscFile(extra: Cells[] = [], edit: (row: Cells, i: number) => Cells = (row) => row): Buffer {
  const rows = seedIndia().map((r, i) =>
    edit(
      {
        BANK: r.bank_name,
        IFSC: r.routing_number,
        BRANCH: r.branch_name,
        CENTRE: r.address_line2,
        DISTRICT: r.district,
        STATE: r.state,
        ADDRESS: r.address_line1,
        CONTACT: '',
        IMPS: 'true',
        RTGS: 'true',
        CITY: r.city,
        ISO3166: '',
        NEFT: 'true',
        MICR: 'NA',
        UPI: 'false',
        SWIFT: '',
      },
      i,
    ),
  );
  return Buffer.from(stringify([...rows, ...extra], { header: true, columns: [...IFSC_PUBLIC_COLUMNS] }));
}

describe.each(testEngines())('ops file formats over HTTP (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let maker: OpsSessionCookie;
  let checker: OpsSessionCookie;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-files-'));
    t = await createTestApp({ engine, uploads: { dir: join(dir, 'uploads') } });
    await createOpsAccount(t.app, 'alice', ['maker']);
    await createOpsAccount(t.app, 'bob', ['checker']);
    maker = await signIn(t.app, 'alice');
    checker = await signIn(t.app, 'bob');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function stage(payload: Buffer) {
    const staged = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/changes',
      headers: { ...maker.headers, ...multipartType },
      payload,
    });
    expect(staged.statusCode, staged.body).toBe(202);
    const { id } = changeSummary.parse(staged.json());
    for (let i = 0; i < 1200; i++) {
      const detail = changeDetail.parse(
        (
          await t.app.inject({ method: 'GET', url: `/v1/ops/changes/${id}`, headers: { cookie: checker.cookie } })
        ).json(),
      );
      if (detail.status !== 'validating') return detail;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`change ${id} still validating`);
  }
  const diffOf = async (id: string, query: string) =>
    opsPage(diffEntry).parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/v1/ops/changes/${id}/diff?${query}`,
          headers: { cookie: checker.cookie },
        })
      ).json(),
    );

  it("an XLSX branch file is staged and diffed as its CSV would be; its SHA-256 is the workbook's", async () => {
    const rows = editedBangladesh(2, 'XLSX');
    const columns = [...branchesKind.columns];
    const workbook = await xlsxOf([columns, ...rows.map((row) => columns.map((column) => row[column] ?? ''))]);
    const detail = await stage(multipart({ kind: 'branches' }, 'bd.xlsx', workbook, XLSX_TYPE));
    expect(detail).toMatchObject({ status: 'staged', approvable: true, fileName: 'bd.xlsx', problemCount: 0 });
    expect(detail.sha256).toBe(createHash('sha256').update(workbook).digest('hex'));
    expect(detail.diff!.counts).toEqual({ added: 1, removed: 1, changed: 2 });
    const changed = await diffOf(detail.id, 'op=changed');
    expect(changed.data.map((e) => e.after!.branchName)).toEqual(
      expect.arrayContaining([expect.stringContaining('XLSX'), expect.stringContaining('XLSX')]),
    );
  });

  it('a workbook with a formula cell is refused, the cell and formula named; nothing can be approved', async () => {
    const columns = [...branchesKind.columns];
    const rows = editedBangladesh(1).map((row) => columns.map((column) => row[column] ?? '') as ExcelJS.CellValue[]);
    rows[4][2] = { formula: 'HYPERLINK("http://evil.example","AB BANK")', result: 'AB BANK LIMITED' };
    const detail = await stage(
      multipart({ kind: 'branches' }, 'formula.xlsx', await xlsxOf([columns, ...rows]), XLSX_TYPE),
    );
    expect(detail.approvable).toBe(false);
    const problems = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/ops/changes/${detail.id}/problems`,
        headers: { cookie: checker.cookie },
      })
    ).json();
    expect(JSON.stringify(problems.data)).toMatch(/formula/i);
    expect(JSON.stringify(problems.data)).toContain('HYPERLINK');
    const approve = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${detail.id}/approve`,
      headers: checker.headers,
      payload: {},
    });
    expect(approve.statusCode).toBeGreaterThanOrEqual(400);
    expect(approve.statusCode).toBeLessThan(500);
  });

  it('a zip bomb (an XLSX inflating past OPS_XLSX_MAX_UNPACKED_BYTES) is refused, memory bounded', async () => {
    // Shared strings whose one string inflates to 512 MiB, in a file under 1 MB; the app refuses past 32 MiB.
    const bomb = await xlsxSharedStringsBomb(512);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // Another app on the same store (closing it leaves the store open).
    const strict = await buildApp({
      store: t.store,
      searchIndexBuild: 'inline',
      uploads: { dir: join(dir, 'strict'), maxUnpackedBytes: 32 * 1024 * 1024 },
    });
    try {
      const session = await signIn(strict, 'alice');
      const before = process.memoryUsage().rss;
      const staged = await strict.inject({
        method: 'POST',
        url: '/v1/ops/changes',
        headers: { ...session.headers, ...multipartType },
        payload: multipart({ kind: 'branches' }, 'bomb.xlsx', bomb, XLSX_TYPE),
      });
      expect(staged.statusCode).toBe(202);
      const { id } = changeSummary.parse(staged.json());
      let detail = await strict.desk.get(id);
      for (let i = 0; i < 600 && detail.status === 'validating'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        detail = await strict.desk.get(id);
      }
      expect(detail.approvable).toBe(false);
      const problems = await strict.desk.problems(id, { pageNumber: 1, pageSize: 10 });
      expect(problems.data[0].message).toMatch(/unpacks to more than 33554432 bytes .*zip bomb/);
      // Loose: the read stopped near 32 MiB of XML, far from the 512 MiB the file unpacks to.
      expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
    } finally {
      await strict.close();
    }
  });

  it('the public IFSC list of India is detected, staged and diffed field by field', async () => {
    const india = seedIndia();
    const newIfsc = `${india[0].routing_number.slice(0, 4)}0999999`;
    const file = ifscFile(
      [
        {
          BANK: india[0].bank_name,
          IFSC: newIfsc,
          BRANCH: 'DESK NEW BRANCH',
          CENTRE: india[0].address_line2,
          DISTRICT: india[0].district,
          STATE: india[0].state,
          ADDRESS: 'NEW ROAD 1',
          CONTACT: '',
          IMPS: 'true',
          RTGS: 'true',
          CITY: india[0].city,
          ISO3166: '',
          NEFT: 'true',
          MICR: 'NA',
          UPI: 'false',
          SWIFT: '',
        },
      ],
      (row, i) => (i === 5 ? { ...row, ADDRESS: `${row.ADDRESS} (MOVED)` } : row),
    );
    const detect = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/files/detect',
      headers: { ...maker.headers, ...multipartType },
      payload: multipart({ kind: 'branches' }, 'IFSC.csv', file.subarray(0, 64 * 1024)),
    });
    expect(detect.statusCode, detect.body).toBe(200);
    expect(detectedLayout.parse(detect.json())).toMatchObject({ layout: 'ifsc-public', format: 'csv' });

    const detail = await stage(multipart({ kind: 'branches' }, 'IFSC.csv', file));
    expect(detail).toMatchObject({ status: 'staged', approvable: true, problemCount: 0 });
    expect(detail.diff!.counts).toMatchObject({ added: 1, removed: 0 });
    const added = await diffOf(detail.id, 'op=added');
    expect(added.data.map((e) => e.key)).toEqual([['IN', newIfsc]]);
    const moved = (await diffOf(detail.id, 'op=changed&pageSize=500')).data.find(
      (e) => e.key[1] === india[5].routing_number,
    )!;
    expect(moved.changedFields).toContain('addressLine1');
    expect(moved.after!.addressLine1).toBe(`${india[5].address_line1} (MOVED)`);
    expect(moved.before!.addressLine1).toBe(india[5].address_line1);
  });

  it("any other header: detected as mapped; staged through the maker's column mapping", async () => {
    const rows = editedBangladesh(1, 'MAPPED');
    const headings: Record<string, string> = {
      country: 'Country Code',
      bank_code: 'Bank No',
      bank_name: 'Institution',
      routing_number: 'Routing',
      branch_name: 'Office',
      address_line1: 'Street',
      address_line2: 'Locality',
      city: 'Town',
      district: 'Zila',
      state: 'Division',
    };
    const columns = [...branchesKind.columns];
    const file = Buffer.from(
      stringify(
        rows.map((row) => columns.map((column) => row[column] ?? '')),
        { header: true, columns: columns.map((column) => headings[column]) },
      ),
    );
    const detect = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/files/detect',
      headers: { ...maker.headers, ...multipartType },
      payload: multipart({ kind: 'branches' }, 'other.csv', file.subarray(0, 64 * 1024)),
    });
    expect(detectedLayout.parse(detect.json()).layout).toBe('mapped');
    const mapping = Object.fromEntries(columns.map((column) => [headings[column], column]));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/changes',
      headers: { ...maker.headers, ...multipartType },
      payload: multipart({ kind: 'branches', reading: '{"layout":"sideways"}' }, 'other.csv', file),
    });
    expect(refused.statusCode).toBe(400);
    expect(problem.parse(refused.json()).errors[0].name).toBe('reading.layout');
    const detail = await stage(
      multipart({ kind: 'branches', reading: JSON.stringify({ layout: 'mapped', mapping }) }, 'other.csv', file),
    );
    expect(detail).toMatchObject({ status: 'staged', approvable: true, problemCount: 0 });
    expect(detail.diff!.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    // Without the mapping the same file is refused by the importer's header check.
    const unmapped = await stage(multipart({ kind: 'branches' }, 'other.csv', file));
    expect(unmapped.approvable).toBe(false);
  });

  it('detect needs a maker session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/files/detect',
      headers: multipartType,
      payload: multipart({ kind: 'branches' }, 'x.csv', Buffer.from('a,b\n')),
    });
    expect(response.statusCode).toBe(401);
  });
});
