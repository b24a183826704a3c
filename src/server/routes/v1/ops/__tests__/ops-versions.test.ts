import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';
import { dataStatusResponse, problem } from '../../../../../contract';
import {
  changeSummary,
  diffEntry,
  opsPage,
  versionSummary,
  type ChangeDetail,
  type DiffEntry,
  type VersionSummary,
} from '../../../../../contract/ops-changes';
import { versionComparison, type VersionComparison } from '../../../../../contract/ops-versions';
import { branchesKind } from '../../../../importer/kinds';
import { csvRows } from '../../../../../testing/csv-rows';
import { createTestApp, LOOKUP_HEADERS, testEngines, type TestApp } from '../../../../../testing/test-app';
import {
  createOpsAccount,
  multipartUpload,
  signIn,
  stageUpload,
  type OpsSessionCookie,
} from '../../../../../testing/ops';
import {
  editedBangladesh,
  expectedDifference,
  shippedBangladesh,
  type Cells,
} from '../../../../desk/__tests__/fixtures';

// Versions taken away and compared, through the real app on both stores: a version's file downloads byte for
// byte as uploaded (a CSV, an XLSX, an XLSX read through a column mapping), its data.csv holds the rows served,
// two versions compare as the change diffs between them add up (worked out from the files too), the release
// note counts what the change did, the desk and the teller footer name one SHA-256, and a rollback names the
// version it restores while the countries it did not change keep their source. Pruned versions: a 404 saying so.

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const columns = [...branchesKind.columns];

async function xlsxOf(header: string[], rows: Cells[], cellsOf: (row: Cells) => string[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('branches');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(cellsOf(row));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Entries comparable whatever their order: sorted by operation and key. */
const sorted = (entries: DiffEntry[]) =>
  [...entries].sort((a, b) => `${a.op} ${a.key.join('|')}`.localeCompare(`${b.op} ${b.key.join('|')}`));

/** What a run of differences does in all: per record its first `before` and last `after`, none where equal. */
function netOf(differences: DiffEntry[][]): DiffEntry[] {
  const byKey = new Map<string, DiffEntry>();
  for (const entries of differences)
    for (const e of entries) {
      const id = e.key.join('|');
      const was = byKey.get(id);
      byKey.set(id, was ? { ...e, before: was.before } : e);
    }
  const net: DiffEntry[] = [];
  for (const e of byKey.values()) {
    if (e.before && e.after) {
      const changedFields = Object.keys(e.after).filter((f) => e.after![f] !== e.before![f]);
      if (changedFields.length) net.push({ ...e, op: 'changed', changedFields });
    } else if (e.before) net.push({ ...e, op: 'removed', after: null, changedFields: [] });
    else if (e.after) net.push({ ...e, op: 'added', before: null, changedFields: [] });
  }
  return net;
}

describe.each(testEngines())('versions taken away and compared (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let maker: OpsSessionCookie;
  let checker: OpsSessionCookie;
  let other: OpsSessionCookie;
  /** Published, in order: the change, its upload's bytes and its version. */
  const published: { change: ChangeDetail; upload: Buffer; version: VersionSummary }[] = [];
  let baseline: VersionSummary;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-versions-'));
    t = await createTestApp({ engine, desk: { versionsKept: 4 }, uploads: { dir: join(dir, 'uploads') } });
    await createOpsAccount(t.app, 'alice', ['maker']);
    await createOpsAccount(t.app, 'bob', ['checker']);
    await createOpsAccount(t.app, 'carol', ['checker']);
    maker = await signIn(t.app, 'alice');
    checker = await signIn(t.app, 'bob');
    other = await signIn(t.app, 'carol');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, cookie: string | null = checker.cookie) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const versions = async () =>
    opsPage(versionSummary).parse((await get('/v1/ops/versions?kind=branches&pageSize=100')).json()).data;
  async function approve(change: ChangeDetail, by = checker) {
    expect(change, change.failure ?? JSON.stringify(change.ruleCounts)).toMatchObject({ approvable: true });
    const approved = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${change.id}/approve`,
      headers: by.headers,
      payload: { comment: 'checked', confirmRemovals: false },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(changeSummary.parse(approved.json()).status).toBe('published');
    return (await versions()).find((v) => v.changeId === change.id)!;
  }
  async function publish(fileName: string, upload: Buffer, reading?: object) {
    const fields: Record<string, string> = { kind: 'branches' };
    if (reading) fields.reading = JSON.stringify(reading);
    const change = await stageUpload(t.app, maker, checker, multipartUpload(fields, fileName, upload));
    const version = await approve(change);
    published.push({ change, upload, version });
    return version;
  }
  async function compare(from: number, to: number, query = ''): Promise<VersionComparison> {
    const size = query.includes('pageSize') ? '' : '&pageSize=100';
    const response = await get(`/v1/ops/versions/compare?from=${from}&to=${to}${size}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return versionComparison.parse(response.json());
  }
  async function allCompared(from: number, to: number): Promise<DiffEntry[]> {
    const all: DiffEntry[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await compare(from, to, `&pageNumber=${pageNumber}`);
      all.push(...page.data);
      if (pageNumber >= page.pagination.totalPages) return all;
    }
  }
  async function changeDiff(id: string): Promise<DiffEntry[]> {
    const all: DiffEntry[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = opsPage(diffEntry).parse(
        (await get(`/v1/ops/changes/${id}/diff?pageSize=100&pageNumber=${pageNumber}`)).json(),
      );
      all.push(...page.data);
      if (pageNumber >= page.pagination.totalPages) return all;
    }
  }
  const rowsOf = (index: number) => [...editedBangladesh(index + 1, `V${index + 1}`)];

  it('downloads each version’s file byte for byte as uploaded: a CSV, an XLSX, an XLSX through a column mapping', async () => {
    const csv = Buffer.from(stringify(rowsOf(0), { header: true, columns }));
    await publish('bd-v1.csv', csv);
    const xlsx = await xlsxOf(columns, rowsOf(1), (row) => columns.map((c) => row[c] ?? ''));
    await publish('bd v2 (bank).xlsx', xlsx);
    // Headings the desk does not know, read through the maker's mapping.
    const headings = Object.fromEntries(columns.map((c) => [c, `Bank ${c.replace(/_/g, ' ')}`]));
    const mapped = await xlsxOf(
      columns.map((c) => headings[c]),
      rowsOf(2),
      (row) => columns.map((c) => row[c] ?? ''),
    );
    await publish('bd-v3-mapped.xlsx', mapped, {
      layout: 'mapped',
      mapping: Object.fromEntries(columns.map((c) => [headings[c], c])),
    });
    baseline = (await versions()).find((v) => v.changeId === null)!;
    expect(baseline).toBeDefined();

    for (const { upload, version, change } of published) {
      const response = await get(`/v1/ops/versions/${version.id}/file`);
      expect(response.statusCode, response.body).toBe(200);
      expect(sha256(response.rawPayload)).toBe(sha256(upload));
      expect(response.rawPayload.equals(upload)).toBe(true);
      // One hash story: the upload's, the change's, the version's.
      expect(version.sha256).toBe(sha256(upload));
      expect(change.sha256).toBe(sha256(upload));
      expect(response.headers['content-type']).toMatch(
        version.fileName.endsWith('.csv') ? /^text\/csv/ : /^application\/vnd\.openxmlformats/,
      );
      expect(response.headers['content-disposition']).toContain(`filename="${version.fileName}"`);
    }
  }, 300_000);

  it('the teller footer (GET /v1/data-status) names the file and SHA-256 the desk’s history shows', async () => {
    const status = dataStatusResponse.parse(
      (await t.app.inject({ method: 'GET', url: '/v1/data-status', headers: LOOKUP_HEADERS })).json(),
    );
    const latest = published[2].version;
    const bd = status.data.find((s) => s.kind === 'branches' && s.countries?.includes('BD'))!;
    expect(bd).toMatchObject({ file: latest.fileName, sha256: latest.sha256 });
    expect((await versions())[0]).toMatchObject({ id: latest.id, sha256: latest.sha256, rollbackOf: null });
  }, 300_000);

  it('data.csv holds the version’s rows in the import format: the BD rows as uploaded, the others as served', async () => {
    const response = await get(`/v1/ops/versions/${published[2].version.id}/data.csv`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toContain(`version-${published[2].version.id}-branches.csv`);
    const rows = csvRows(response.rawPayload);
    expect(Object.keys(rows[0])).toEqual(columns);
    const bd = rows.filter((r) => r.country === 'BD');
    const expected = rowsOf(2);
    const byRouting = new Map(expected.map((r) => [r.routing_number, r]));
    expect(bd.length).toBe(expected.length);
    for (const row of bd) {
      const uploaded = byRouting.get(row.routing_number)!;
      for (const c of ['bank_code', 'bank_name', 'branch_name', 'address_line1', 'district'])
        expect(row[c], `${row.routing_number} ${c}`).toBe(uploaded[c]);
    }
    // The baseline's data.csv has the same rows outside BD: a version holds the kind's whole data.
    const before = csvRows((await get(`/v1/ops/versions/${baseline.id}/data.csv`)).rawPayload);
    expect(rows.filter((r) => r.country !== 'BD')).toEqual(before.filter((r) => r.country !== 'BD'));
    // Read again as a change, it is the data served: no difference at all.
    const again = await t.app.desk.stage(
      { name: 'alice', roles: ['maker'], via: 'session' },
      { kind: 'branches', path: writeTemp('again.csv', response.rawPayload), fileName: 'again.csv' },
    );
    if (again.status === 'staged') expect(again.diff?.counts).toEqual({ added: 0, removed: 0, changed: 0 });
    else expect(again.failure ?? '').toMatch(/identical|no difference|nothing/i);
  }, 300_000);

  it('compares two kept versions: each version against the one before is its change’s diff; across three, the net effect', async () => {
    const chain = [baseline, ...published.map((p) => p.version)];
    for (let i = 1; i < chain.length; i++) {
      const compared = await allCompared(chain[i - 1].id, chain[i].id);
      const change = published[i - 1].change;
      expect(sorted(compared), `version ${chain[i].id}`).toEqual(sorted(await changeDiff(change.id)));
      const page = await compare(chain[i - 1].id, chain[i].id);
      expect(page.counts).toEqual(change.diff!.counts);
      expect(page.byCountry).toEqual(change.diff!.byCountry);
      expect(page.byBank).toEqual(change.byBank);
    }
    // Baseline → the third: the changes' net effect, and the files' own difference.
    const across = await allCompared(baseline.id, chain[3].id);
    const diffs = await Promise.all(published.map((p) => changeDiff(p.change.id)));
    expect(sorted(across)).toEqual(sorted(netOf(diffs)));
    const expected = expectedDifference(shippedBangladesh(), rowsOf(2));
    const keysOf = (op: string) =>
      across
        .filter((e) => e.op === op)
        .map((e) => e.key[1])
        .sort();
    expect(keysOf('added')).toEqual([...expected.added].sort());
    expect(keysOf('removed')).toEqual([...expected.removed].sort());
    expect(keysOf('changed')).toEqual([...expected.changed].sort());
    expect(across.every((e) => e.country === 'BD')).toBe(true);
    // Searched by a code, as a change's difference is: only the entries holding it.
    const code = across[0].key[1];
    const found = await compare(baseline.id, chain[3].id, `&q=${code.toLowerCase()}`);
    expect(found.data.length).toBeGreaterThan(0);
    expect(found.data.every((e) => [...e.key, ...(e.previousKey ?? [])].includes(code))).toBe(true);
    // Backwards, the same records the other way round.
    const back = await allCompared(chain[3].id, baseline.id);
    expect(back.filter((e) => e.op === 'added').length).toBe(expected.removed.length);
    // Filtered and paged as a change's diff: pages are slices of one order.
    const changed = await compare(baseline.id, chain[3].id, '&op=changed');
    expect(changed.data.every((e) => e.op === 'changed')).toBe(true);
    expect(changed.pagination.totalItems).toBe(expected.changed.length);
    const small = await compare(baseline.id, chain[3].id, '&op=changed&pageSize=1&pageNumber=2');
    expect(small.data).toEqual(changed.data.slice(1, 2));
  }, 300_000);

  it('a release note per version: counts in all, per country and bank, and each record’s code', async () => {
    for (const { version, change } of published) {
      const response = await get(`/v1/ops/versions/${version.id}/release-note.csv`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      const lines = csvRows(response.rawPayload);
      const total = lines.find((l) => l.line === 'total')!;
      expect([total.added, total.removed, total.changed].map(Number)).toEqual([
        change.diff!.counts.added,
        change.diff!.counts.removed,
        change.diff!.counts.changed,
      ]);
      const bd = lines.find((l) => l.line === 'country' && l.country === 'BD')!;
      expect(Number(bd.changed)).toBe(change.diff!.byCountry.find((c) => c.country === 'BD')!.changed);
      const banks = lines.filter((l) => l.line === 'bank');
      expect(banks.map((b) => [b.country, b.bank_code, +b.added, +b.removed, +b.changed])).toEqual(
        change.byBank.map((b) => [b.country, b.bankCode, b.added, b.removed, b.changed]),
      );
      const records = lines
        .filter((l) => l.line === 'record')
        .map((l) => `${l.op} ${l.code}`)
        .sort();
      const entries = (await changeDiff(change.id)).map((e) => `${e.op} ${e.key[1]}`).sort();
      expect(records).toEqual(entries);
    }
  }, 300_000);

  it('a rollback says which version it restores; countries it did not change keep their source', async () => {
    const target = published[0].version;
    const rollback = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/versions/${target.id}/rollback`,
      headers: checker.headers,
    });
    expect(rollback.statusCode, rollback.body).toBe(202);
    const { id } = changeSummary.parse(rollback.json());
    let change: ChangeDetail;
    for (;;) {
      change = (await get(`/v1/ops/changes/${id}`)).json() as ChangeDetail;
      if (change.status !== 'validating') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const before = dataStatusResponse.parse(
      (await t.app.inject({ method: 'GET', url: '/v1/data-status', headers: LOOKUP_HEADERS })).json(),
    );
    const version = await approve(change, other);
    expect(version).toMatchObject({ rollbackOf: target.id, sha256: change.sha256 });
    const after = dataStatusResponse.parse(
      (await t.app.inject({ method: 'GET', url: '/v1/data-status', headers: LOOKUP_HEADERS })).json(),
    );
    const branchSources = (status: typeof after) => status.data.filter((s) => s.kind === 'branches');
    // BD changed: its source is the rollback, with the version's SHA-256; the others kept theirs, as they were.
    const bd = branchSources(after).find((s) => s.countries?.includes('BD'))!;
    expect(bd).toMatchObject({ file: version.fileName, sha256: version.sha256, countries: ['BD'] });
    const untouched = (status: typeof after) =>
      branchSources(status)
        .filter((s) => !s.countries?.includes('BD'))
        .sort((a, b) => a.file.localeCompare(b.file));
    expect(untouched(after).length).toBeGreaterThan(0);
    expect(untouched(after)).toEqual(untouched(before));
    // The rollback's file is the snapshot it restored: the rolled-back-to version's data.
    const file = await get(`/v1/ops/versions/${version.id}/file`);
    expect(sha256(file.rawPayload)).toBe(version.sha256);
    expect(file.rawPayload.equals((await get(`/v1/ops/versions/${target.id}/data.csv`)).rawPayload)).toBe(true);
  }, 300_000);

  it('a pruned version answers 404 saying so; a version never published, 404; bad ids and pairs, 400', async () => {
    // DESK_VERSIONS_KEPT=4: the baseline went with the rollback's version.
    const kept = await versions();
    expect(kept.map((v) => v.id)).not.toContain(baseline.id);
    for (const path of ['file', 'data.csv', 'release-note.csv']) {
      const response = await get(`/v1/ops/versions/${baseline.id}/${path}`);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem.parse(response.json()).detail).toMatch(/no longer kept/);
    }
    const pruned = await get(`/v1/ops/versions/compare?from=${baseline.id}&to=${kept[0].id}`);
    expect(pruned.statusCode).toBe(404);
    expect(problem.parse(pruned.json()).detail).toMatch(/no longer kept/);
    const never = await get('/v1/ops/versions/999999/file');
    expect(never.statusCode).toBe(404);
    expect(problem.parse(never.json()).detail).toMatch(/no version 999999/);
    for (const url of [
      '/v1/ops/versions/abc/file',
      '/v1/ops/versions/0/data.csv',
      '/v1/ops/versions/compare?from=1',
      '/v1/ops/versions/compare?from=x&to=2',
      `/v1/ops/versions/compare?from=${kept[0].id}&to=${kept[1].id}&op=moved`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect((await get(`/v1/ops/versions/${kept[0].id}/file`, null)).statusCode).toBe(401);
  }, 300_000);

  function writeTemp(name: string, bytes: Buffer) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  }
});
