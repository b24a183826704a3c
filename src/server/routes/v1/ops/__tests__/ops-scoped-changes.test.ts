import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { changeDetail, type ChangeDetail, type DiffEntry } from '../../../../../contract/ops-changes';
import { recordPage } from '../../../../../contract/ops-records';
import type { DataSet } from '../../../../domain/data-set';
import { agentKey, branchKey, headOfficeKey } from '../../../../domain/natural-keys';
import { branchRecord } from '../../../../importer/row-schemas';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import { csvRows } from '../../../../../testing/csv-rows';
import {
  createOpsAccount,
  multipartUpload,
  signIn,
  stageUpload,
  type OpsSessionCookie,
} from '../../../../../testing/ops';
import { REPO_ROOT } from '../../../../paths';
import { shippedBangladesh, writeBranchFile, type Cells } from '../../../../desk/__tests__/fixtures';

// Scoped changes and changes without a file, through the real app on both stores, checked by brute force: every
// served record (branches, head offices, agents, by natural key) read before and after each publish, and every
// record outside the change's scope byte-identical. A one-bank India file read through a column mapping (fixed
// country, bank code from the IFSC, no address line 2), staged with that bank's scope and without one; an upsert;
// a row outside the scope; edits (add, change, remove) validated by the importer's rules and published.

const IN_ROWS = csvRows(readFileSync(join(REPO_ROOT, 'data', 'seed', 'bank-branches', 'IN.csv')));
const ABHY = IN_ROWS.filter((r) => r.bank_code === 'ABHY');
/** The one-bank file's own layout: no country, no bank code, no address line 2 (a bank's back-office export). */
const MAPPING = {
  'IFSC Code': 'routing_number',
  'Bank Name': 'bank_name',
  Branch: 'branch_name',
  Address: 'address_line1',
  City: 'city',
  District: 'district',
  State: 'state',
};
const READING = JSON.stringify({ layout: 'mapped', mapping: MAPPING, country: 'IN' });

/** ABHY's branches in the bank's layout: the first renamed, the second left out, one new. */
function abhyFile(): { csv: string; renamed: string; left: string; added: string } {
  const rows = ABHY.map((r) => ({ ...r }));
  rows[0].branch_name = `${rows[0].branch_name} MAIN`;
  const [left] = rows.splice(1, 1);
  rows.push({ ...rows[2], routing_number: 'ABHY0099999', branch_name: 'NEW SCOPED BRANCH' });
  const headings = Object.keys(MAPPING);
  const csv = stringify([headings, ...rows.map((r) => headings.map((h) => r[MAPPING[h as keyof typeof MAPPING]]))]);
  return { csv, renamed: rows[0].routing_number, left: left.routing_number, added: 'ABHY0099999' };
}

const SEP = '\u001f';
/** Every served record by kind and natural key, as JSON text (the record compared byte for byte). */
function records(dataSet: DataSet): Map<string, string> {
  const all = new Map<string, string>();
  const put = (kind: string, key: string, row: unknown) => {
    let id = `${kind}${SEP}${key}`;
    for (let n = 2; all.has(id); n++) id = `${kind}${SEP}${key}#${n}`;
    all.set(id, JSON.stringify(row));
  };
  for (const b of dataSet.branches) put('branches', branchKey(b), b);
  for (const h of dataSet.headOffices) put('partners', headOfficeKey(h), h);
  for (const a of dataSet.agents) put('agents', agentKey(a), a);
  return all;
}

/** The records that differ between two readings (added, removed or changed), by id. */
function differing(before: Map<string, string>, after: Map<string, string>): string[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].filter((id) => before.get(id) !== after.get(id)).sort();
}

const branchId = (country: string, routing: string) => `branches${SEP}${country}${SEP}${routing}`;

describe.each(testEngines())('scoped changes and changes without a file (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let maker: OpsSessionCookie;
  let checker: OpsSessionCookie;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-scope-'));
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

  const served = async () => records((await t.app.store.readDataSet()).dataSet);
  const upload = (fields: Record<string, string>, name: string, content: string) =>
    stageUpload(t.app, maker, checker, multipartUpload(fields, name, content));
  const approve = async (id: string, confirmRemovals = false) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${id}/approve`,
      headers: checker.headers,
      payload: { comment: 'checked', confirmRemovals },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const discard = async (id: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${id}/discard`,
      headers: maker.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  /** Every entry of a change's difference. */
  async function entries(id: string): Promise<DiffEntry[]> {
    const all: DiffEntry[] = [];
    for (let page = 1; ; page++) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/v1/ops/changes/${id}/diff?pageSize=500&pageNumber=${page}`,
        headers: { cookie: checker.cookie },
      });
      const body = response.json() as { data: DiffEntry[]; pagination: { totalPages: number } };
      all.push(...body.data);
      if (page >= body.pagination.totalPages) return all;
    }
  }
  const edits = (body: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/ops/changes', headers: maker.headers, payload: body as object });

  it('a one-bank India file without a scope removes the other banks and is flagged; with its bank scope it touches only that bank, and keeps what it does not carry', async () => {
    const file = abhyFile();
    const before = await served();

    // Without a scope: the file replaces India — the other 26 banks' branches removed, over the guard.
    const whole = await upload({ kind: 'branches', reading: READING }, 'abhy.csv', file.csv);
    expect(whole).toMatchObject({ status: 'staged', problemCount: 0, scope: null });
    expect(whole.diff!.counts.removed).toBe(IN_ROWS.length - ABHY.length + 1);
    expect(whole.diff!.guard.flagged).toBe(true);
    expect(whole.diff!.guard.flags).toContainEqual(expect.objectContaining({ scope: 'country', country: 'IN' }));
    await discard(whole.id);

    // With the bank's scope: only ABHY is added, changed or removed; nothing is flagged.
    const scoped = await upload(
      { kind: 'branches', reading: READING, scope: JSON.stringify({ country: 'IN', bankCode: 'ABHY' }) },
      'abhy.csv',
      file.csv,
    );
    expect(scoped).toMatchObject({
      status: 'staged',
      problemCount: 0,
      approvable: true,
      scope: { country: 'IN', bankCode: 'ABHY' },
      countries: ['IN'],
    });
    expect(scoped.diff!.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(scoped.diff!.guard.flagged).toBe(false);
    expect(scoped.byBank.map((g) => [g.country, g.bankCode])).toEqual([['IN', 'ABHY']]);
    const diff = await entries(scoped.id);
    expect(diff.filter((e) => e.bankCode !== 'ABHY')).toEqual([]);
    const changed = diff.find((e) => e.op === 'changed')!;
    // Only the branch name changed: address line 2, which the file does not carry, is not blanked.
    expect(changed.changedFields).toEqual(['branchName']);
    expect(changed.after!.addressLine2).toBe(changed.before!.addressLine2);
    expect(changed.after!.addressLine2).not.toBeNull();
    await approve(scoped.id);

    const after = await served();
    expect(differing(before, after)).toEqual(
      [branchId('IN', file.renamed), branchId('IN', file.left), branchId('IN', file.added)].sort(),
    );
    // The renamed branch kept its served address line 2; the new one has none (its file gives none).
    const renamed = JSON.parse(after.get(branchId('IN', file.renamed))!) as Record<string, unknown>;
    const was = JSON.parse(before.get(branchId('IN', file.renamed))!) as Record<string, unknown>;
    expect({ ...renamed, branchName: was.branchName }).toEqual(was);
  });

  it('an upsert adds and changes the records of its file and removes nothing', async () => {
    const bd = shippedBangladesh();
    const rows: Cells[] = [
      { ...bd[10], branch_name: `${bd[10].branch_name} UPSERTED` },
      { ...bd[20], address_line1: `${bd[20].address_line1} (NEW ADDRESS)` },
      {
        ...bd[30],
        routing_number: '020159997',
        bank_code: '020',
        bank_name: bd[0].bank_name,
        branch_name: 'UPSERT NEW',
        district: 'Chattogram',
        state: 'Chattogram',
      },
    ];
    const before = await served();
    const change = await upload(
      { kind: 'branches', scope: JSON.stringify({ mode: 'upsert' }) },
      'upsert.csv',
      readFileSync(writeBranchFile(dir, 'upsert.csv', rows), 'utf8'),
    );
    expect(change).toMatchObject({ status: 'staged', problemCount: 0, scope: { mode: 'upsert' } });
    expect(change.diff!.counts).toEqual({ added: 1, removed: 0, changed: 2 });
    await approve(change.id);
    const after = await served();
    expect(differing(before, after)).toEqual(
      [
        branchId('BD', bd[10].routing_number),
        branchId('BD', bd[20].routing_number),
        branchId('BD', '020159997'),
      ].sort(),
    );
  });

  it('a row outside the scope is a problem of that row; a bad scope is a 400', async () => {
    const bd = shippedBangladesh();
    const rows = [bd[0], { ...bd[1] }, bd[2]];
    const change = await upload(
      { kind: 'branches', scope: JSON.stringify({ country: 'BD', bankCode: bd[0].bank_code }) },
      'outside.csv',
      readFileSync(writeBranchFile(dir, 'outside.csv', [...rows, { ...IN_ROWS[0] }]), 'utf8'),
    );
    expect(change.approvable).toBe(false);
    const problems = await t.app.inject({
      method: 'GET',
      url: `/v1/ops/changes/${change.id}/problems`,
      headers: { cookie: checker.cookie },
    });
    const outside = (
      problems.json() as { data: { row: number; column: string; rule: string; message: string }[] }
    ).data.filter((p) => p.message.includes("outside this change's scope"));
    expect(outside.length, problems.body).toBeGreaterThan(0);
    expect(outside.at(-1)).toMatchObject({ row: 5, column: 'country' });
    expect(outside.at(-1)!.message).toContain(
      `outside this change's scope (the branches of bank ${bd[0].bank_code} of BD)`,
    );
    await discard(change.id);

    for (const [scope, name] of [
      ['{"country":"IN"', 'scope'],
      ['{"country":"in"}', 'scope.country'],
      ['{"mode":"replace"}', 'scope'],
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/ops/changes',
        headers: { ...maker.headers, 'content-type': 'multipart/form-data; boundary=----rpl-test-upload-boundary' },
        payload: multipartUpload({ kind: 'branches', scope }, 'x.csv', 'country\n'),
      });
      expect(response.statusCode, response.body).toBe(400);
      const body = problem.parse(response.json());
      expect(body.errors?.map((e) => e.name)).toContain(name);
    }
    const partners = await t.app.inject({
      method: 'POST',
      url: '/v1/ops/changes',
      headers: { ...maker.headers, 'content-type': 'multipart/form-data; boundary=----rpl-test-upload-boundary' },
      payload: multipartUpload({ kind: 'partners', scope: '{"country":"IN","bankCode":"ABHY"}' }, 'p.csv', 'x\n'),
    });
    expect(partners.statusCode).toBe(400);
    expect(problem.parse(partners.json()).detail).toContain('a bank scope applies to branches');
  });

  it('edits without a file: a bad routing number is refused with the importer’s message; a key not served is a 400', async () => {
    const bd = shippedBangladesh();
    const key = `BD~${bd[40].routing_number}`;
    const bad = await edits({ kind: 'branches', edits: [{ op: 'change', key, fields: { routingNumber: '12AB' } }] });
    expect(bad.statusCode, bad.body).toBe(202);
    const change = changeDetail.parse(bad.json());
    expect(change).toMatchObject({
      status: 'staged',
      approvable: false,
      fileName: 'edits.json',
      scope: { mode: 'upsert' },
    });
    const importer = branchRecord.safeParse({ ...bd[40], routing_number: '12AB' });
    const expected = importer.error!.issues.find((i) => i.path[0] === 'routing_number')!.message;
    const problems = await t.app.inject({
      method: 'GET',
      url: `/v1/ops/changes/${change.id}/problems`,
      headers: { cookie: checker.cookie },
    });
    expect((problems.json() as { data: { column: string; message: string }[] }).data).toContainEqual(
      expect.objectContaining({ column: 'routing_number', message: expected }),
    );
    await discard(change.id);

    const missing = await edits({ kind: 'branches', edits: [{ op: 'remove', key: 'BD~999999999' }] });
    expect(missing.statusCode).toBe(400);
    expect(problem.parse(missing.json()).detail).toContain('no served branches record has the key BD~999999999');
    const unknownField = await edits({ kind: 'branches', edits: [{ op: 'change', key, fields: { colour: 'red' } }] });
    expect(unknownField.statusCode).toBe(400);
    expect(problem.parse(unknownField.json()).detail).toContain('colour is not a field of branches');
  });

  it('edits add, change and remove records: staged, approved, published and shown on the record pages', async () => {
    const bd = shippedBangladesh();
    const [changedRow, removedRow] = [bd[50], bd[60]];
    const added = {
      ...bd[70],
      routing_number: '020159996',
      bank_code: '020',
      bank_name: bd[0].bank_name,
      branch_name: 'EDIT ADDED',
      district: 'Chattogram',
      state: 'Chattogram',
    };
    const before = await served();
    const response = await edits({
      kind: 'branches',
      edits: [
        { op: 'add', fields: { ...added } },
        {
          op: 'change',
          key: `BD~${changedRow.routing_number}`,
          fields: { branchName: 'EDIT CHANGED', addressLine2: null },
        },
        { op: 'remove', key: `BD~${removedRow.routing_number}` },
      ],
    });
    expect(response.statusCode, response.body).toBe(202);
    const change: ChangeDetail = changeDetail.parse(response.json());
    expect(change).toMatchObject({ status: 'staged', problemCount: 0, approvable: true });
    expect(change.diff!.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(change.diff!.guard.flagged).toBe(false);
    await approve(change.id);

    const after = await served();
    expect(differing(before, after)).toEqual(
      [
        branchId('BD', changedRow.routing_number),
        branchId('BD', removedRow.routing_number),
        branchId('BD', '020159996'),
      ].sort(),
    );
    const page = async (key: string) => {
      const read = await t.app.inject({
        method: 'GET',
        url: `/v1/ops/records/branches/${encodeURIComponent(key)}`,
        headers: { cookie: checker.cookie },
      });
      expect(read.statusCode, read.body).toBe(200);
      return recordPage.parse(read.json());
    };
    const changedPage = await page(`BD~${changedRow.routing_number}`);
    expect(changedPage.record).toMatchObject({ branchName: 'EDIT CHANGED', addressLine2: null });
    expect(changedPage.history[0]).toMatchObject({ op: 'change', fileName: 'edits.json', approvedBy: 'bob' });
    expect((await page(`BD~${removedRow.routing_number}`)).record).toBeNull();
    expect((await page('BD~020159996')).record).toMatchObject({ branchName: 'EDIT ADDED', bankCode: '020' });
  });

  it('a scoped change made stale by another publish is diffed again within its scope: the other publish stays', async () => {
    const bd = shippedBangladesh();
    // A bank the tests before leave alone.
    const bank = bd.at(-1)!.bank_code;
    const ofBank = bd.filter((r) => r.bank_code === bank);
    const mine = await upload(
      { kind: 'branches', scope: JSON.stringify({ country: 'BD', bankCode: bank }) },
      'bank.csv',
      readFileSync(
        writeBranchFile(
          dir,
          'bank.csv',
          ofBank.map((r, i) => (i === 0 ? { ...r, branch_name: `${r.branch_name} STALE` } : r)),
        ),
        'utf8',
      ),
    );
    // Meanwhile an edit of another bank is published.
    const other = bd.find((r) => r.bank_code !== bank && r.country === 'BD')!;
    const edit = await edits({
      kind: 'branches',
      edits: [{ op: 'change', key: `BD~${other.routing_number}`, fields: { branchName: 'OTHER BANK EDIT' } }],
    });
    await approve(changeDetail.parse(edit.json()).id);
    const before = await served();
    const stale = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${mine.id}/approve`,
      headers: checker.headers,
      payload: { comment: 'checked' },
    });
    expect(stale.statusCode).toBe(409);
    await approve(mine.id);
    const after = await served();
    expect(differing(before, after)).toEqual([branchId('BD', ofBank[0].routing_number)]);
    expect(after.get(branchId('BD', other.routing_number))).toContain('OTHER BANK EDIT');
  });
});
