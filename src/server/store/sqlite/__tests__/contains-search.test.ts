import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../../../contract';
import type { DataSet } from '../../../seed/data-set';
import { splitBankBranchSearch, type AgentSearch, type BranchSearch } from '../../store';
import { SqliteStore } from '../sqlite-store';

// The trigram indexes (002-contains-indexes.sql) only narrow the rows the instr() semantics are asked
// about. These tests hold the store's answers, on both of its plans (narrowed rows sorted, ordered index
// walked), to a brute-force filter in JavaScript over the seeded rows, for terms of every awkward kind.

// Terms: common and rare words of the real data, 1–2 characters, wildcards, quotes, FTS5 query syntax,
// lower/upper case, non-ASCII.
const TERMS = [
  'ROAD', 'road', 'Road', 'MAIN ROAD', 'BRANCH', 'NAGAR', 'DHAKA', 'Dhaka', 'LAGOS', 'ZZQX', 'A', 'a', 'RO', 'ro', '1',
  '%', '_', '*', '?', '[', '%RO', 'RO_D', 'R*D', '"', '""', "'", 'A"B', 'ROAD"', '"ROAD"', 'AND', 'OR', 'NOT', 'NEAR(',
  'NEAR(ROAD BRANCH)', '{address_line1_search}', 'address_line1_search:', ':', '^ROA', 'ROA*', '-', '(', ')', '+ROAD',
  'ñ', 'São', 'BANK', 'Bank', 'bank', 'STATE BANK', 'LIMITED', 'SONALI', 'Elektra', 'OXXO', 'OXXO Ciudad', 'Western',
  'Banco', 'BANCO', 'Ciudad', 'Mexico', 'an', 'e',
];

let dir: string;
let dataSet: DataSet;
const stores: { plan: string; store: SqliteStore }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rpl-contains-'));
  for (const [plan, forced] of [['narrowed rows', 'narrowed'], ['ordered index walk', 'walk']] as const) {
    const file = join(dir, `${forced}.sqlite`);
    copyFileSync(inject('seededSqliteFile'), file);
    stores.push({ plan, store: SqliteStore.open(file, { plan: forced }) });
  }
  dataSet = (await stores[0].store.readDataSet()).dataSet;
});

afterAll(async () => {
  for (const { store } of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const has = (value: string | null, term: string | undefined) => term === undefined || (value ?? '').includes(term);
const hasFolded = (value: string | null, term: string | undefined) => term === undefined || (value ?? '').toLowerCase().includes(term.toLowerCase());

function officesOffering(country: string, mode: number) {
  return dataSet.headOffices.filter((h) => h.country === country && h.deliveryModes.includes(mode));
}

/** Branches in answer order with their ids (ids are the load order, 1-based). */
let ordered: (DataSet['branches'][number] & { id: number })[] | undefined;
function branchesInOrder() {
  ordered ??= dataSet.branches
    .map((b, i) => ({ ...b, id: i + 1 }))
    .sort((x, y) => byText(x.bankName, y.bankName) || byText(x.branchName, y.branchName) || x.id - y.id);
  return ordered;
}

function expectedBranches(q: BranchSearch): string[] {
  const office = officesOffering(q.receivingCountry, ACCOUNT_TRANSFER_TO_OTHER_BANK).find((h) => h.code === q.receivingAgentHeadOfficeCode);
  if (!office) return [];
  return branchesInOrder()
    .filter(
      (b) =>
        b.country === q.receivingCountry &&
        office.bankCodes.includes(b.bankCode) &&
        hasFolded(b.bankName, q.bankName) &&
        (q.bankCode === undefined || b.bankCode === q.bankCode || b.routingNumber === q.bankCode) &&
        hasFolded(b.addressLine1, q.branchLocation) &&
        hasFolded(b.addressLine2, q.address) &&
        hasFolded(b.district, q.district),
    )
    .map((b) => `${b.bankCode}|${b.routingNumber}|${b.branchName}`);
}

function expectedAgents(q: AgentSearch): string[] {
  const offices = officesOffering(q.receivingCountry, q.deliveryMode).sort((x, y) => byText(x.code, y.code));
  if (q.deliveryMode === ACCOUNT_TRANSFER_TO_OTHER_BANK) {
    const parts = q.search ? splitBankBranchSearch(q.search) : null;
    const ordered = branchesInOrder();
    return offices.flatMap((h) =>
      ordered
        .filter(
          (b) =>
            b.country === h.country &&
            h.bankCodes.includes(b.bankCode) &&
            (q.state === undefined || b.state === q.state) &&
            (parts
              ? has(b.bankName, parts.bankName) && has(b.branchName, parts.branchName)
              : has(h.name, q.search) || has(b.bankName, q.search) || has(b.branchName, q.search)),
        )
        .map((b) => `${h.code}|${b.routingNumber ?? `${b.bankCode}-${b.id}`}`),
    );
  }
  const offered = new Map(offices.map((h) => [h.code, h]));
  return dataSet.agents
    .filter(
      (a) =>
        a.country === q.receivingCountry &&
        offered.has(a.headOfficeCode) &&
        (q.state === undefined || a.state === q.state) &&
        (has(a.agentName, q.search) || has(offered.get(a.headOfficeCode)!.name, q.search)),
    )
    .sort((x, y) => byText(x.headOfficeCode, y.headOfficeCode) || byText(x.agentCode, y.agentCode))
    .map((a) => `${a.headOfficeCode}|${a.agentCode}`);
}

/** The store's whole answer, page by page (pages of 1000, the largest allowed). */
async function allBranches(store: SqliteStore, q: Omit<BranchSearch, 'pageNumber' | 'pageSize'>) {
  const keys: string[] = [];
  let totalItems = 0;
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await store.branches({ ...q, pageNumber, pageSize: 1000 });
    totalItems = page.pagination.totalItems;
    keys.push(...page.data.map((b) => `${b.bankCode}|${b.routingNumber}|${b.branchName}`));
    if (page.data.length < 1000) break;
  }
  return { keys, totalItems };
}

async function allAgents(store: SqliteStore, q: Omit<AgentSearch, 'pageNumber' | 'pageSize'>) {
  const keys: string[] = [];
  let totalItems = 0;
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await store.agents({ ...q, pageNumber, pageSize: 1000 });
    totalItems = page.pagination.totalItems;
    keys.push(...page.data.map((a) => `${a.receivingAgentHeadOfficeCode}|${a.agentCode}`));
    if (page.data.length < 1000) break;
  }
  return { keys, totalItems };
}

describe.each(['narrowed rows', 'ordered index walk'])('contains searches on the %s plan', (plan) => {
  const store = () => stores.find((s) => s.plan === plan)!.store;

  it.each(TERMS)('bank branches: branchLocation, address, district and bankName %j', async (term) => {
    for (const q of [
      { receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ICICIN', branchLocation: term },
      { receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'FDRLIN', address: term },
      { receivingCountry: 'BD', deliveryMode: 4, receivingAgentHeadOfficeCode: 'BRACBD', district: term },
      { receivingCountry: 'BD', deliveryMode: 4, receivingAgentHeadOfficeCode: 'SONLBD', bankName: term, branchLocation: term },
      { receivingCountry: 'NG', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ACCSNG', bankName: term },
    ]) {
      const expected = expectedBranches({ ...q, pageNumber: 1, pageSize: 1000 });
      expect(await allBranches(store(), q), JSON.stringify(q)).toEqual({ keys: expected, totalItems: expected.length });
    }
  });

  it.each(TERMS)('agent list: head office or agent name contains %j (case-sensitive)', async (term) => {
    for (const q of [
      { receivingCountry: 'MX', deliveryMode: 1, search: term },
      { receivingCountry: 'BD', deliveryMode: 1, state: 'C', search: term },
      { receivingCountry: 'IN', deliveryMode: 4, search: term },
      { receivingCountry: 'BD', deliveryMode: 4, search: `${term}, ${term}` },
      { receivingCountry: 'IN', deliveryMode: 4, search: `STATE BANK, ${term}` },
    ]) {
      const expected = expectedAgents({ ...q, pageNumber: 1, pageSize: 1000 });
      expect(await allAgents(store(), q), JSON.stringify(q)).toEqual({ keys: expected, totalItems: expected.length });
    }
  });

  it('bank code: exact on bank code or routing number, and empty outside the head office banks', async () => {
    const routed = dataSet.branches.find((b) => b.country === 'BD' && b.routingNumber)!;
    for (const bankCode of [routed.bankCode, routed.routingNumber!, 'SBIN', 'ZZZZ']) {
      for (const receivingAgentHeadOfficeCode of ['BRACBD', 'SONLBD']) {
        const q = { receivingCountry: 'BD', deliveryMode: 4, receivingAgentHeadOfficeCode, bankCode };
        const expected = expectedBranches({ ...q, pageNumber: 1, pageSize: 1000 });
        expect(await allBranches(store(), q), JSON.stringify(q)).toEqual({ keys: expected, totalItems: expected.length });
      }
    }
  });

  it('pages: a later page is the same slice of the answer as the brute-force order', async () => {
    const q = { receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ICICIN', branchLocation: 'road' };
    const expected = expectedBranches({ ...q, pageNumber: 1, pageSize: 1000 });
    expect(expected.length).toBeGreaterThan(200);
    const page = await store().branches({ ...q, pageNumber: 3, pageSize: 50 });
    expect(page.data.map((b) => `${b.bankCode}|${b.routingNumber}|${b.branchName}`)).toEqual(expected.slice(100, 150));
    expect(page.pagination.totalItems).toBe(expected.length);
  });
});
