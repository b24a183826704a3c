import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../../../../contract';
import { recordPage, recordsPage, type RecordMatch } from '../../../../../contract/ops-records';
import { versionSummary } from '../../../../../contract/ops-changes';
import { createTestApp, LOOKUP_HEADERS, testEngines, type TestApp } from '../../../../../testing/test-app';
import { createOpsAccount, signIn, type OpsSessionCookie } from '../../../../../testing/ops';
import { csvRows } from '../../../../../testing/csv-rows';
import { REPO_ROOT } from '../../../../paths';
import type { OpsActor } from '../../../../desk/desk';
import { NEW_BRANCH, shippedBangladesh, writeBranchFile, type Cells } from '../../../../desk/__tests__/fixtures';

// The published records from the desk on both stores: the search by each code and by name, bank and city
// (expected values from the shipped files), paged and filtered by country; a record's whole life across
// published versions and a rollback, kept when the versions' snapshots are pruned; 400, 401 and 404.

const seedFile = (...path: string[]) => csvRows(readFileSync(join(REPO_ROOT, 'data', 'seed', ...path)));
const SEARCHED = ['bank_name', 'branch_name', 'city', 'address_line1', 'district'] as const;
/** The keys of the shipped branches of a country holding the term in a searched field, from the file alone. */
function expectedKeys(country: string, term: string): Set<string> {
  const lower = term.toLowerCase();
  return new Set(
    seedFile('bank-branches', `${country}.csv`)
      .filter((r) => SEARCHED.some((column) => (r[column] ?? '').toLowerCase().includes(lower)))
      .map((r) => `${r.country}~${r.routing_number}`),
  );
}

const alice: OpsActor = { name: 'alice', roles: ['maker'], via: 'session' };
const bob: OpsActor = { name: 'bob', roles: ['checker'], via: 'session' };
const carol: OpsActor = { name: 'carol', roles: ['checker'], via: 'session' };

describe.each(testEngines())('the published records from the desk (%s)', (engine) => {
  let t: TestApp;
  let dir: string;
  let ops: OpsSessionCookie;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-ops-records-'));
    t = await createTestApp({ engine, desk: { versionsKept: 2 } });
    await createOpsAccount(t.app, 'dora', ['maker']);
    ops = await signIn(t.app, 'dora');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, cookie: string | null = ops.cookie) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  async function search(query: Record<string, string>) {
    const response = await get(`/v1/ops/records?${new URLSearchParams(query).toString()}`);
    expect(response.statusCode, response.body).toBe(200);
    return recordsPage.parse(response.json());
  }
  /** Every match of a search, page by page. */
  async function searchAll(query: Record<string, string>): Promise<RecordMatch[]> {
    const all: RecordMatch[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const found = await search({ ...query, pageSize: '100', pageNumber: String(pageNumber) });
      all.push(...found.data);
      if (pageNumber >= found.pagination.totalPages) return all;
    }
  }
  const record = async (kind: string, key: string) => {
    const response = await get(`/v1/ops/records/${kind}/${encodeURIComponent(key)}`);
    expect(response.statusCode, response.body).toBe(200);
    return recordPage.parse(response.json());
  };

  it('finds a branch by routing number and by IFSC (any case), an agent by code, a head office by code or name; opens them', async () => {
    const bd = await search({ kind: 'branches', q: '020150130' });
    expect(bd.pagination.totalItems).toBe(1);
    expect(bd.data[0]).toMatchObject({ key: 'BD~020150130', code: '020150130', country: 'BD', name: 'AGRABAD' });
    const ifsc = await search({ kind: 'branches', q: 'abhy0065002' });
    expect(ifsc.pagination.totalItems).toBe(1);
    expect(ifsc.data[0]).toMatchObject({ key: 'IN~ABHY0065002', bankCode: 'ABHY', name: 'ABHYUDAYA NAGAR' });
    const agent = await search({ kind: 'agents', q: 'ACCSNG00001' });
    expect(agent.data.map((a) => a.key)).toEqual(['ACCSNG00001']);
    expect(agent.data[0]).toMatchObject({
      name: 'Access Bank Inisa',
      bankCode: 'ACCSNG',
      city: 'Inisa',
      country: 'NG',
    });
    expect((await search({ kind: 'partners', q: 'elekmx' })).data.map((p) => p.key)).toEqual(['ELEKMX']);
    const byName = await search({ kind: 'partners', q: 'elektra' });
    expect(byName.data.map((p) => p.key)).toContain('ELEKMX');
    // Their pages: every field as served, no history while no version touched them.
    const office = await record('partners', 'ELEKMX');
    expect(office.record).toEqual({
      code: 'ELEKMX',
      country: 'MX',
      name: 'GRUPO ELEKTRA',
      networkName: 'Elektra / Banco Azteca',
      payoutType: 'N',
      deliveryModes: '1 3',
      bankCodes: '',
      demoLocations: '1200',
    });
    expect(office.history).toEqual([]);
    const shipped = seedFile('agents.csv')[0];
    expect((await record('agents', 'ACCSNG00001')).record).toMatchObject({
      agentCode: shipped.agent_code,
      headOfficeCode: shipped.head_office_code,
      agentName: shipped.agent_name,
      addressLine1: shipped.address_line1,
      city: shipped.city,
      state: shipped.state,
      phoneNumber: shipped.phone_number,
    });
  });

  it('finds branches by name, bank and city as the shipped files hold them, paged, in one country', async () => {
    for (const [country, term] of [
      ['BD', 'anderkilla'],
      ['IN', 'Ahmednagar'],
      ['BD', 'AB Bank'],
    ] as const) {
      const expected = expectedKeys(country, term);
      expect(expected.size).toBeGreaterThan(0);
      const found = await searchAll({ kind: 'branches', q: term, country });
      expect(new Set(found.map((m) => m.key)), `${country} ${term}`).toEqual(expected);
      expect(found.length).toBe(expected.size);
    }
    // Pages are slices of one order; the country filter keeps its country only.
    const wide = await search({ kind: 'branches', q: 'AB Bank', country: 'BD', pageSize: '40' });
    const second = await search({ kind: 'branches', q: 'AB Bank', country: 'BD', pageSize: '20', pageNumber: '2' });
    expect(second.data).toEqual(wide.data.slice(20, 40));
    expect(second.pagination).toMatchObject({ pageNumber: 2, pageSize: 20, totalItems: wide.pagination.totalItems });
    expect(wide.data.every((m) => m.country === 'BD')).toBe(true);
    const everywhere = await search({ kind: 'branches', q: 'bank' });
    const inNigeria = await search({ kind: 'branches', q: 'bank', country: 'NG' });
    expect(inNigeria.pagination.totalItems).toBeGreaterThan(0);
    expect(everywhere.pagination.totalItems).toBeGreaterThan(inNigeria.pagination.totalItems);
    // Agents by name (any case) and city, in their country.
    const agents = seedFile('agents.csv');
    const inisa = agents.filter((a) => [a.agent_name, a.city].some((v) => v.toLowerCase().includes('inisa')));
    const found = await searchAll({ kind: 'agents', q: 'INISA', country: 'NG' });
    expect(new Set(found.map((a) => a.key))).toEqual(new Set(inisa.map((a) => a.agent_code)));
  });

  it('opens a branch of a country without routing numbers by its key (its parts percent-encoded)', async () => {
    const ng = seedFile('bank-branches', 'NG.csv')[0];
    const [match] = (await search({ kind: 'branches', q: ng.branch_name, country: 'NG' })).data.filter(
      (m) => m.name === ng.branch_name && m.bankCode === ng.bank_code,
    );
    const parts = [ng.country, ng.bank_code, ng.branch_name, ng.address_line1];
    expect(match.key).toBe(parts.map((p) => encodeURIComponent(p).replace(/~/g, '%7E')).join('~'));
    const page = await record('branches', match.key);
    expect(page.record).toMatchObject({ country: 'NG', bankCode: ng.bank_code, branchName: ng.branch_name });
    expect(page.history).toEqual([]);
  });

  it('answers 401 without a session (403 for a teller id), 400 for bad parameters and keys, 404 for a record never served', async () => {
    expect(problem.parse((await get('/v1/ops/records?kind=branches', null)).json()).status).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/ops/records?kind=branches', headers: LOOKUP_HEADERS })).statusCode,
    ).toBe(403);
    expect((await get('/v1/ops/records/branches/IN~ABHY0065002', null)).statusCode).toBe(401);
    for (const [url, name] of [
      ['/v1/ops/records?kind=banks', 'kind'],
      ['/v1/ops/records?kind=branches&country=india', 'country'],
      ['/v1/ops/records?kind=branches&pageNumber=0', 'pageNumber'],
      ['/v1/ops/records?kind=branches&pageSize=101', 'pageSize'],
      ['/v1/ops/records?kind=branches&other=1', 'query'],
      ['/v1/ops/records/banks/IN~ABHY0065002', 'kind'],
      ['/v1/ops/records/branches/IN~%25ZZ', 'key'],
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(
        problem.parse(response.json()).errors.map((e) => e.name),
        url,
      ).toContain(name);
    }
    const missing = await get('/v1/ops/records/branches/IN~ABHY9999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problem.parse(missing.json()).status).toBe(404);
  });

  it("keeps a record's whole life across versions and a rollback, after their snapshots are pruned", async () => {
    const files: { name: string; sha256: string }[] = [];
    /** Stages the shipped Bangladesh file with the new branch as given; published by bob with a comment. */
    async function publish(branch: Cells, name: string, comment: string) {
      const path = writeBranchFile(dir, name, [...shippedBangladesh(), branch]);
      files.push({ name, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') });
      const staged = await t.app.desk.stage(alice, { kind: 'branches', path, fileName: name });
      expect(staged.status, staged.failure ?? '').toBe('staged');
      return t.app.desk.approve(bob, staged.id, { comment, confirmRemovals: false });
    }
    const versionOf = async () =>
      (await t.app.desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 50 })).data[0].id;
    await publish(NEW_BRANCH, 'bd-add.csv', 'new Agrabad East branch');
    const added = await versionOf();
    const renamed = { ...NEW_BRANCH, branch_name: 'AGRABAD EAST 2' };
    await publish(renamed, 'bd-rename.csv', 'renamed by the bank');
    const renamedVersion = await versionOf();
    const moved = { ...renamed, address_line1: 'AGRABAD EAST BRANCH, NEW ADDRESS' };
    await publish(moved, 'bd-move.csv', 'moved');
    const movedVersion = await versionOf();
    // A rollback to the renamed version: staged by a checker, approved by another.
    const rollback = await t.app.desk.stageRollback(bob, renamedVersion);
    expect(rollback.status, rollback.failure ?? '').toBe('staged');
    await t.app.desk.approve(carol, rollback.id, { comment: 'the move was a mistake', confirmRemovals: false });
    const rolledBack = await versionOf();

    const page = await record('branches', 'BD~020159998');
    expect(page.record).toMatchObject({ branchName: 'AGRABAD EAST 2', addressLine1: 'AGRABAD EAST BRANCH' });
    expect(page.history.map((h) => [h.versionId, h.op])).toEqual([
      [rolledBack, 'change'],
      [movedVersion, 'change'],
      [renamedVersion, 'change'],
      [added, 'add'],
    ]);
    const [back, move, rename, add] = page.history;
    expect(back).toMatchObject({
      stagedBy: 'bob',
      approvedBy: 'carol',
      comment: 'the move was a mistake',
      fileName: `rollback-to-version-${renamedVersion}.csv`,
      changedFields: ['addressLine1'],
      before: { addressLine1: 'AGRABAD EAST BRANCH, NEW ADDRESS', branchName: 'AGRABAD EAST 2' },
      after: { addressLine1: 'AGRABAD EAST BRANCH', branchName: 'AGRABAD EAST 2' },
    });
    expect(back.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    for (const [entry, file, comment] of [
      [move, files[2], 'moved'],
      [rename, files[1], 'renamed by the bank'],
      [add, files[0], 'new Agrabad East branch'],
    ] as const)
      expect(entry).toMatchObject({
        stagedBy: 'alice',
        approvedBy: 'bob',
        comment,
        fileName: file.name,
        fileSha256: file.sha256,
      });
    expect(move).toMatchObject({
      changedFields: ['addressLine1'],
      before: { addressLine1: 'AGRABAD EAST BRANCH' },
      after: { addressLine1: 'AGRABAD EAST BRANCH, NEW ADDRESS' },
    });
    expect(rename).toMatchObject({
      changedFields: ['branchName'],
      before: { branchName: 'AGRABAD EAST' },
      after: { branchName: 'AGRABAD EAST 2' },
    });
    expect(add).toMatchObject({ before: null, after: { routingNumber: '020159998', branchName: 'AGRABAD EAST' } });
    for (const h of page.history) expect(Date.parse(h.publishedAt)).not.toBeNaN();
    expect(page.history.map((h) => h.publishedAt)).toEqual(
      [...page.history.map((h) => h.publishedAt)].sort().reverse(),
    );

    // DESK_VERSIONS_KEPT=2: the add and the rename are no longer versions, their history stays.
    const versions = (await get('/v1/ops/versions?kind=branches')).json() as { data: unknown[] };
    const kept = versions.data.map((v) => versionSummary.parse(v).id);
    expect(kept).toEqual([rolledBack, movedVersion]);
    expect(kept).not.toContain(added);
    // The search finds the record as served now, by its new name.
    const found = await search({ kind: 'branches', q: 'agrabad east 2', country: 'BD' });
    expect(found.data.map((m) => m.key)).toEqual(['BD~020159998']);
  }, 300_000);
});
