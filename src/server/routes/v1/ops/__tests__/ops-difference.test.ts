import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { changeQuality } from '../../../../../contract/ops-quality';
import { diffEntry, opsPage, type ChangeDetail } from '../../../../../contract/ops-changes';
import { recordPage } from '../../../../../contract/ops-records';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import {
  createOpsAccount,
  multipartUpload,
  signIn,
  stageUpload,
  type OpsSessionCookie,
} from '../../../../../testing/ops';
import { branchesKind } from '../../../../importer/kinds';
import { NEW_BRANCH, shippedBangladesh, type Cells } from '../../../../desk/__tests__/fixtures';

// The difference a checker verifies, on both stores: the valid rows' entries of a file with a bad row (not
// approvable), every field of an added and a removed record, a routing-number correction as one code-changed
// entry (counted as one change, in both codes' histories), the search by code and name, and the quality findings
// the change would add. Expected values from the shipped Bangladesh file alone.

const FIELDS: Record<string, string> = {
  country: 'country',
  bank_code: 'bankCode',
  bank_name: 'bankName',
  routing_number: 'routingNumber',
  branch_name: 'branchName',
  address_line1: 'addressLine1',
  address_line2: 'addressLine2',
  city: 'city',
  district: 'district',
  state: 'state',
};
/** A file row as the difference shows its fields (empty cells: null). */
const fieldsOf = (row: Cells) =>
  Object.fromEntries(Object.entries(FIELDS).map(([column, field]) => [field, row[column] || null]));

const csv = (rows: Cells[]) => stringify(rows, { header: true, columns: [...branchesKind.columns] });
const diffPage = opsPage(diffEntry);

describe.each(testEngines())('the difference a checker verifies (%s)', (engine) => {
  let t: TestApp;
  let maker: OpsSessionCookie;
  let checker: OpsSessionCookie;
  beforeAll(async () => {
    t = await createTestApp({ engine });
    await createOpsAccount(t.app, 'mia', ['maker']);
    await createOpsAccount(t.app, 'chen', ['checker']);
    maker = await signIn(t.app, 'mia');
    checker = await signIn(t.app, 'chen');
  });
  afterAll(() => t.close());

  const stage = (name: string, rows: Cells[]): Promise<ChangeDetail> =>
    stageUpload(t.app, maker, checker, multipartUpload({ kind: 'branches' }, name, csv(rows)));
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: checker.cookie } });
  async function diff(id: string, query: Record<string, string> = {}) {
    const response = await get(`/v1/ops/changes/${id}/diff?${new URLSearchParams({ pageSize: '500', ...query })}`);
    expect(response.statusCode, response.body).toBe(200);
    return diffPage.parse(response.json());
  }
  async function quality(id: string) {
    const response = await get(`/v1/ops/changes/${id}/quality`);
    expect(response.statusCode, response.body).toBe(200);
    return changeQuality.parse(response.json());
  }
  const discard = (id: string) =>
    t.app.inject({ method: 'POST', url: `/v1/ops/changes/${id}/discard`, headers: maker.headers, payload: {} });

  it('lists the valid rows’ entries of a file with a bad row, every field of an added and a removed one; not approvable', async () => {
    const served = shippedBangladesh();
    const rows = [...served.slice(1), NEW_BRANCH];
    rows[5] = { ...rows[5], routing_number: '12345' };
    const change = await stage('bd-one-bad.csv', rows);
    expect(change).toMatchObject({ status: 'staged', approvable: false, rows: { bad: 1 } });
    expect(change.diff).not.toBeNull();
    // The valid rows: NEW_BRANCH added; the first branch (not in the file) and the bad row's branch removed.
    expect(change.diff!.counts).toEqual({ added: 1, removed: 2, changed: 0 });
    const added = await diff(change.id, { op: 'added' });
    expect(added.data).toHaveLength(1);
    expect(added.data[0]).toMatchObject({
      key: ['BD', NEW_BRANCH.routing_number],
      // Every field (the state as its code).
      after: { ...fieldsOf(NEW_BRANCH), state: expect.any(String) },
      recordKey: `BD~${NEW_BRANCH.routing_number}`,
    });
    const removed = await diff(change.id, { op: 'removed' });
    expect(removed.data.map((e) => e.key[1]).sort()).toEqual(
      [served[0].routing_number, served[6].routing_number].sort(),
    );
    const first = removed.data.find((e) => e.key[1] === served[0].routing_number)!;
    expect(first.before).toEqual({ ...fieldsOf(served[0]), state: expect.any(String) });
    const approve = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${change.id}/approve`,
      headers: checker.headers,
      payload: { confirmRemovals: true },
    });
    expect(approve.statusCode).toBe(409);
    expect((await discard(change.id)).statusCode).toBe(200);
  });

  it('shows a routing-number correction as one code-changed entry, counted as one change; both codes keep its history', async () => {
    const served = shippedBangladesh();
    const rows = served.map((r) => ({ ...r }));
    const oldCode = served[2].routing_number;
    // The same bank and district (the routing number's first five digits), a serial the file does not use.
    const newCode = `${oldCode.slice(0, 5)}9997`;
    expect(served.some((r) => r.routing_number === newCode)).toBe(false);
    rows[2].routing_number = newCode;
    const change = await stage('bd-code-corrected.csv', rows);
    expect(change.approvable, (await get(`/v1/ops/changes/${change.id}/problems`)).body).toBe(true);
    expect(change.diff!.counts).toEqual({ added: 0, removed: 0, changed: 1 });
    expect(change.diff!.guard.flagged).toBe(false);
    const entries = await diff(change.id);
    expect(entries.data).toHaveLength(1);
    expect(entries.data[0]).toMatchObject({
      op: 'changed',
      key: ['BD', newCode],
      previousKey: ['BD', oldCode],
      changedFields: ['routingNumber'],
      before: { ...fieldsOf(served[2]), state: expect.any(String) },
      after: { ...fieldsOf(rows[2]), state: expect.any(String) },
      recordKey: `BD~${newCode}`,
    });
    // Searched by the old code, the new code and the name (any case).
    for (const q of [oldCode, newCode, served[2].branch_name.toLowerCase()])
      expect((await diff(change.id, { q })).data.map((e) => e.key[1])).toEqual([newCode]);

    const approved = await t.app.inject({
      method: 'POST',
      url: `/v1/ops/changes/${change.id}/approve`,
      headers: checker.headers,
      payload: { comment: 'routing number corrected by the bank' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    for (const [key, served] of [
      [`BD~${oldCode}`, false],
      [`BD~${newCode}`, true],
    ] as const) {
      const page = recordPage.parse((await get(`/v1/ops/records/branches/${encodeURIComponent(key)}`)).json());
      expect(page.record !== null).toBe(served);
      expect(page.history[0]).toMatchObject({
        op: 'change',
        comment: 'routing number corrected by the bank',
        before: { routingNumber: oldCode },
        after: { routingNumber: newCode },
      });
    }
  });

  it('searches the difference by code and by name, server side, paged', async () => {
    const served = shippedBangladesh();
    // Every AB Bank branch renamed: many entries; the search narrows them.
    const rows = served.map((r) =>
      r.bank_code === '020' ? { ...r, address_line2: `${r.address_line2} (moved)` } : { ...r },
    );
    const changed = served.filter((r) => r.bank_code === '020');
    const change = await stage('bd-ab-moved.csv', rows);
    expect(change.diff!.counts.changed).toBe(changed.length);
    const byCode = await diff(change.id, { q: changed[3].routing_number });
    expect(byCode.data.map((e) => e.key)).toEqual([['BD', changed[3].routing_number]]);
    expect(byCode.pagination.totalItems).toBe(1);
    const term = 'ganj';
    const expected = changed
      .filter((r) => r.branch_name.toLowerCase().includes(term) || r.bank_name.toLowerCase().includes(term))
      .map((r) => r.routing_number);
    expect(expected.length).toBeGreaterThan(2);
    const first = await diff(change.id, { q: 'GANJ', pageSize: '2' });
    expect(first.pagination).toMatchObject({ totalItems: expected.length, pageSize: 2 });
    const all = await diff(change.id, { q: term });
    expect(all.data.map((e) => e.key[1]).sort()).toEqual([...expected].sort());
    expect(first.data.map((e) => e.key[1])).toEqual(all.data.slice(0, 2).map((e) => e.key[1]));
    expect((await diff(change.id, { q: 'no such branch anywhere' })).pagination.totalItems).toBe(0);
    expect((await get(`/v1/ops/changes/${change.id}/diff?q=${'x'.repeat(101)}`)).statusCode).toBe(400);
    expect((await discard(change.id)).statusCode).toBe(200);
  });

  it('lists the quality findings the change would add, each with its record key; a clean change adds none', async () => {
    const served = shippedBangladesh();
    const clean = await stage('bd-clean-edit.csv', [...served, NEW_BRANCH]);
    expect(await quality(clean.id)).toEqual({ computed: true, total: 0, checks: [] });
    expect((await discard(clean.id)).statusCode).toBe(200);

    const noDistrict = { ...NEW_BRANCH, district: '' };
    const newBank = {
      ...NEW_BRANCH,
      bank_code: '999',
      bank_name: 'NEW TEST BANK',
      routing_number: '999150001',
      branch_name: 'HEAD',
    };
    const change = await stage('bd-findings.csv', [...served, noDistrict, newBank]);
    expect(change.problemCount).toBe(0);
    const found = await quality(change.id);
    expect(found.computed).toBe(true);
    const byCheck = Object.fromEntries(found.checks.map((c) => [c.check, c]));
    expect(Object.keys(byCheck).sort()).toEqual(['bank-without-head-office', 'branch-without-district']);
    expect(byCheck['branch-without-district'].examples).toEqual([
      expect.objectContaining({ code: NEW_BRANCH.routing_number, recordKey: `BD~${NEW_BRANCH.routing_number}` }),
    ]);
    expect(byCheck['bank-without-head-office']).toMatchObject({ count: 1, examples: [{ code: '999', country: 'BD' }] });
    expect(found.total).toBe(2);
    expect((await get('/v1/ops/changes/no-such-change/quality')).statusCode).toBe(404);
  });
});
