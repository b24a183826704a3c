import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { DataSet } from '../../domain/data-set';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import type { AgentSearch, BranchSearch } from '../../store/store';
import { BruteForce } from '../../../testing/brute-force';
import { buildSearchIndex } from '../build';
import { buildFromStore } from '../read-data-set';
import { SearchIndex } from '../search-index';

// The search index held to the plain rules (testing/brute-force.ts), record for record, total for total: on the
// real data (every filter, awkward terms, every page), and on generated data sets (fast-check) whose texts are
// made of the characters that break naive implementations (case folding that changes length, astral
// characters, wildcards, quotes, repeated values, nulls).

type BranchQuery = Omit<BranchSearch, 'pageNumber' | 'pageSize'>;
type AgentQuery = Omit<AgentSearch, 'pageNumber' | 'pageSize'>;

/** The index's whole answer, page by page, and a page past the end. */
function allPages<T>(
  page: (pageNumber: number, pageSize: number) => { data: T[]; pagination: { totalItems: number } },
  pageSize: number,
) {
  const rows: T[] = [];
  let totalItems = -1;
  for (let pageNumber = 1; ; pageNumber++) {
    const answer = page(pageNumber, pageSize);
    if (totalItems >= 0) expect(answer.pagination.totalItems).toBe(totalItems);
    totalItems = answer.pagination.totalItems;
    rows.push(...answer.data);
    if (answer.data.length < pageSize) {
      const past = page(pageNumber + 3, pageSize);
      expect(past.data).toEqual([]);
      expect(past.pagination.totalItems).toBe(totalItems);
      return { rows, totalItems };
    }
  }
}

/** The page as objects, after checking that the JSON written from the documents is exactly its JSON text. */
function branchPage(index: SearchIndex, search: BranchSearch) {
  const page = index.branches(search);
  expect(index.branchesJson(search).toString('utf8')).toBe(JSON.stringify(page));
  return page;
}

function agentPage(index: SearchIndex, search: AgentSearch) {
  const page = index.agents(search);
  const json = index.agentsJson(search);
  if (search.deliveryMode === 4) expect(json).toBeNull();
  else expect(json?.toString('utf8')).toBe(JSON.stringify(page));
  return page;
}

function expectSameBranches(index: SearchIndex, brute: BruteForce, q: BranchQuery, pageSize = 1000) {
  const expected = brute.branches(q);
  const got = allPages((pageNumber, size) => branchPage(index, { ...q, pageNumber, pageSize: size }), pageSize);
  expect(got, JSON.stringify(q)).toEqual({ rows: expected, totalItems: expected.length });
}

function expectSameAgents(index: SearchIndex, brute: BruteForce, q: AgentQuery, pageSize = 1000) {
  const expected = brute.agents(q);
  const got = allPages((pageNumber, size) => agentPage(index, { ...q, pageNumber, pageSize: size }), pageSize);
  expect(got, JSON.stringify(q)).toEqual({ rows: expected, totalItems: expected.length });
}

/** A branch search under ICICI's head office by bank name and branch location (the bench's typical search). */
const iciciSearch = (bankName: string, branchLocation: string) => ({
  receivingCountry: 'IN',
  deliveryMode: 4,
  receivingAgentHeadOfficeCode: 'ICICIN',
  bankName,
  branchLocation,
});

describe('on the real data', () => {
  const TERMS = [
    'ROAD',
    'road',
    'Road',
    'MAIN ROAD',
    'BRANCH',
    'NAGAR',
    'DHAKA',
    'Dhaka',
    'LAGOS',
    'ZZQX',
    'A',
    'a',
    'RO',
    'ro',
    '1',
    '%',
    '_',
    '*',
    '?',
    '[',
    '%RO',
    'RO_D',
    '"',
    "'",
    'A"B',
    'NEAR(',
    '-',
    '(',
    'ñ',
    'São',
    'BANK',
    'bank',
    'STATE BANK',
    'LIMITED',
    'SONALI',
    'Elektra',
    'OXXO',
    'OXXO Ciudad',
    'Banco',
    'an',
    'e',
    'ANDHRA BANK',
    'Chattogram',
    'Chittagong',
    '–',
  ];
  let dir: string;
  let store: SqliteStore;
  let dataSet: DataSet;
  let index: SearchIndex;
  let brute: BruteForce;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-index-'));
    copyFileSync(inject('seededSqliteFile'), join(dir, 'lookup.sqlite'));
    store = SqliteStore.open(join(dir, 'lookup.sqlite'));
    dataSet = (await store.readDataSet()).dataSet;
    // The index as the server builds it: scanned from the store row by row.
    index = new SearchIndex(await buildFromStore(store));
    brute = new BruteForce(dataSet);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is built from the store as from the data set held whole', async () => {
    expect(index.version).toBe(await store.dataVersion());
    const whole = new SearchIndex(buildSearchIndex(dataSet, index.version));
    const q = {
      receivingCountry: 'IN',
      deliveryMode: 4,
      receivingAgentHeadOfficeCode: 'ICICIN',
      pageNumber: 3,
      pageSize: 100,
    };
    expect(whole.branches(q)).toEqual(index.branches(q));
    expect(index.branchCount).toBe(dataSet.branches.length);
  });

  it.each(TERMS)('bank branches: contains filters %j, alone and together', (term) => {
    for (const q of [
      { receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ICICIN', branchLocation: term },
      { receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'FDRLIN', address: term },
      {
        receivingCountry: 'IN',
        deliveryMode: 4,
        receivingAgentHeadOfficeCode: 'ICICIN',
        bankName: term,
        branchLocation: 'a',
      },
      { receivingCountry: 'BD', deliveryMode: 4, receivingAgentHeadOfficeCode: 'BRACBD', district: term },
      {
        receivingCountry: 'BD',
        deliveryMode: 4,
        receivingAgentHeadOfficeCode: 'SONLBD',
        bankName: term,
        branchLocation: term,
      },
      {
        receivingCountry: 'BD',
        deliveryMode: 4,
        receivingAgentHeadOfficeCode: 'BRACBD',
        address: term,
        district: 'a',
        branchLocation: 'r',
      },
      { receivingCountry: 'NG', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ACCSNG', bankName: term },
    ]) {
      expectSameBranches(index, brute, q);
    }
  });

  it.each(TERMS)('agent list: head office or agent name contains %j (case-sensitive), every delivery mode', (term) => {
    for (const q of [
      { receivingCountry: 'MX', deliveryMode: 1, search: term },
      { receivingCountry: 'MX', deliveryMode: 1, state: 'JAL', search: term },
      { receivingCountry: 'BD', deliveryMode: 1, state: 'C', search: term },
      { receivingCountry: 'PH', deliveryMode: 5, search: term },
      { receivingCountry: 'IN', deliveryMode: 4, search: term },
      { receivingCountry: 'BD', deliveryMode: 4, search: `${term}, ${term}` },
      { receivingCountry: 'IN', deliveryMode: 4, state: 'MH', search: `STATE BANK, ${term}` },
    ]) {
      expectSameAgents(index, brute, q);
    }
  });

  it('bank code: exact on bank code or routing number, and empty outside the head office banks', () => {
    const routed = dataSet.branches.find((b) => b.country === 'BD' && b.routingNumber)!;
    for (const bankCode of [routed.bankCode, routed.routingNumber!, 'SBIN', 'ZZZZ', 'ABHY0065002']) {
      for (const receivingAgentHeadOfficeCode of ['BRACBD', 'SONLBD', 'ICICIN']) {
        for (const receivingCountry of ['BD', 'IN']) {
          expectSameBranches(index, brute, {
            receivingCountry,
            deliveryMode: 4,
            receivingAgentHeadOfficeCode,
            bankCode,
          });
          expectSameBranches(index, brute, {
            receivingCountry,
            deliveryMode: 4,
            receivingAgentHeadOfficeCode,
            bankCode,
            branchLocation: 'a',
          });
        }
      }
    }
  });

  it('a word matching thousands of texts inside a small bank (ids looked up, not stamped) gives the same answer', () => {
    // "branch" is in most Indian addresses; a cooperative bank has about a hundred rows: the few rows are checked
    // by binary search in the matching ids (TextMembership) instead of stamping every id first.
    let found = 0;
    for (const bankName of ['abhyudaya', 'catholic', 'andhra', 'akola']) {
      for (const branchLocation of ['branch', 'a', 'road', 'r']) {
        const q = iciciSearch(bankName, branchLocation);
        expectSameBranches(index, brute, q);
        expectSameBranches(index, brute, { ...q, address: 'a' });
        found += brute.branches(q).length;
      }
    }
    expect(found).toBeGreaterThan(100);
  });

  it("the bench's typical searches (bank-name word × place word, pages 1–3 of 50) give the plain rules' pages", () => {
    // The shape of scripts/lib/bench-shapes.ts, distinctBranchSearches: every path a 50-row page takes (a common
    // place word over a bank's whole range counted, then scanned only until the page is full; a rare one gathered
    // from its postings and its page selected among them).
    const india = dataSet.branches.filter((b) => b.country === 'IN');
    const bankWords = [...new Set(india.flatMap((b) => b.bankName.toLowerCase().match(/\p{L}{4,}/gu) ?? []))];
    const rowsOfWord = new Map<string, number>();
    for (const b of india)
      for (const w of new Set((b.addressLine1 ?? '').toLowerCase().match(/\p{L}{4,}/gu) ?? []))
        rowsOfWord.set(w, (rowsOfWord.get(w) ?? 0) + 1);
    const placeWords = [...rowsOfWord]
      .filter(([, n]) => n >= india.length * 0.002 && n <= india.length * 0.05)
      .map(([w]) => w)
      .filter((_, i) => i % 4 === 0)
      .concat(['branch', 'road']);
    let pages = 0;
    for (const bankName of bankWords) {
      for (const branchLocation of placeWords) {
        const q = iciciSearch(bankName, branchLocation);
        const expected = brute.branches(q);
        for (const pageNumber of [1, 2, 3]) {
          const page = branchPage(index, { ...q, pageNumber, pageSize: 50 });
          expect(page.pagination.totalItems, JSON.stringify(q)).toBe(expected.length);
          expect(page.data, JSON.stringify({ ...q, pageNumber })).toEqual(
            expected.slice((pageNumber - 1) * 50, pageNumber * 50),
          );
          if (page.data.length > 0) pages++;
        }
      }
    }
    expect(pages).toBeGreaterThan(500);
  });

  it('pages of every size hold the same slices of the answer, deep pages included', () => {
    for (const pageSize of [1, 7, 50, 333]) {
      expectSameBranches(
        index,
        brute,
        { receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ICICIN', branchLocation: 'road' },
        pageSize,
      );
      expectSameAgents(index, brute, { receivingCountry: 'MX', deliveryMode: 1, search: 'OXXO' }, pageSize);
    }
    const q = { receivingCountry: 'IN', deliveryMode: 4, receivingAgentHeadOfficeCode: 'ICICIN' };
    const expected = brute.branches(q);
    const deep = index.branches({ ...q, pageNumber: 2147483647, pageSize: 1000 });
    expect(deep).toEqual({
      data: [],
      pagination: {
        pageNumber: 2147483647,
        pageSize: 1000,
        totalItems: expected.length,
        totalPages: Math.ceil(expected.length / 1000),
      },
    });
  });

  it('a place known under two names is found under either, in every branch filter (contract/place-aliases.ts)', () => {
    for (const filter of ['branchLocation', 'address', 'district'] as const) {
      const total = (name: string) =>
        index.branches({
          receivingCountry: 'BD',
          deliveryMode: 4,
          receivingAgentHeadOfficeCode: 'BRACBD',
          [filter]: name,
          pageNumber: 1,
          pageSize: 1,
        }).pagination.totalItems;
      expect(total('Chittagong'), filter).toBeGreaterThan(0);
      expect(total('Chittagong'), filter).toBe(total('Chattogram'));
      expect(total('chittagong'), filter).toBe(total('CHATTOGRAM'));
    }
  });

  it('unknown head office, country or state, and a mode the head office does not offer: empty, not an error', () => {
    expect(
      index.branches({
        receivingCountry: 'IN',
        deliveryMode: 4,
        receivingAgentHeadOfficeCode: 'ZZZZZZ',
        pageNumber: 1,
        pageSize: 50,
      }).pagination.totalItems,
    ).toBe(0);
    // A code the documents' placeholder cannot take (the API refuses it; the index still answers it plainly).
    for (const code of ['icicin', 'ICICINX', 'IC"IN']) {
      const search = {
        receivingCountry: 'IN',
        deliveryMode: 4,
        receivingAgentHeadOfficeCode: code,
        pageNumber: 1,
        pageSize: 50,
      };
      expect(branchPage(index, search).pagination.totalItems).toBe(0);
    }
    expect(
      index.branches({
        receivingCountry: 'BD',
        deliveryMode: 4,
        receivingAgentHeadOfficeCode: 'ICICIN',
        pageNumber: 1,
        pageSize: 50,
      }).pagination.totalItems,
    ).toBe(0);
    expect(
      index.branches({
        receivingCountry: 'IN',
        deliveryMode: 1,
        receivingAgentHeadOfficeCode: 'ICICIN',
        pageNumber: 1,
        pageSize: 50,
      }).pagination.totalItems,
    ).toBe(0);
    expect(
      index.agents({ receivingCountry: 'MX', deliveryMode: 1, state: 'ZZZ', pageNumber: 1, pageSize: 50 }).pagination
        .totalItems,
    ).toBe(0);
    expect(
      index.agents({ receivingCountry: 'ZZ', deliveryMode: 1, pageNumber: 1, pageSize: 50 }).pagination.totalItems,
    ).toBe(0);
  });
});

describe('a common word over a large bank, with few matches in it', () => {
  // Bank A (2,000 rows) has 120 rows whose branch location holds "branch", bank B 3,000 more: the word's postings
  // (3,120 rows) outnumber A's rows, and counting A's matches (two binary searches per text) is cheap, so the
  // total is counted and A's range scanned only until the page is full. Before, the whole range was scanned again.
  const rows = (bankCode: string, bankName: string, count: number, location: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => ({
      country: 'IN',
      bankCode,
      bankName,
      routingNumber: null,
      branchName: `${bankName} ${i}`,
      addressLine1: location(i),
      addressLine2: null,
      city: null,
      district: null,
      state: null,
    }));
  const dataSet: DataSet = {
    countries: [{ code: 'IN', name: 'India', currency: 'INR' }],
    deliveryModes: [{ value: 4, name: 'Account' }],
    states: [],
    cities: [],
    headOffices: [
      {
        code: 'HOAAAA',
        country: 'IN',
        name: 'Head office',
        networkName: 'Head office',
        payoutType: 'O',
        deliveryModes: [4],
        bankCodes: ['AAAA', 'BBBB'],
        demoLocations: 0,
      },
    ],
    branches: [
      ...rows('AAAA', 'ALPHA BANK', 2000, (i) =>
        i % 17 === 3 && i < 2040 ? `MAIN BRANCH ${i % 3}` : `MARKET ${i % 5}`,
      ),
      ...rows('BBBB', 'BETA BANK', 3000, (i) => `MAIN BRANCH ${i % 3}`),
    ],
    agents: [],
    sources: [],
  };
  const index = new SearchIndex(buildSearchIndex(dataSet, '1'));
  const brute = new BruteForce(dataSet);

  it.each([1, 2, 3, 4])('page %i of 50 and the total are those of the plain rules', (pageNumber) => {
    const q = {
      receivingCountry: 'IN',
      deliveryMode: 4,
      receivingAgentHeadOfficeCode: 'HOAAAA',
      bankName: 'alpha',
      branchLocation: 'branch',
    };
    const expected = brute.branches(q);
    expect(expected.length).toBe(118);
    const page = branchPage(index, { ...q, pageNumber, pageSize: 50 });
    expect(page.pagination.totalItems).toBe(expected.length);
    expect(page.data).toEqual(expected.slice((pageNumber - 1) * 50, pageNumber * 50));
  });
});

describe('on generated data sets (property-based)', () => {
  // Texts from a small alphabet, so that generated terms often match: upper and lower case, letters whose
  // lower case is longer (İ) or that fold (ß, ﬀ), an astral letter, wildcards, quotes, a space.
  const CHARS = ['a', 'A', 'b', 'B', 'İ', 'i', 'ß', 'ﬀ', '𝔸', '%', '_', '"', ' ', 'é', 'É', '1'];
  const text = fc.array(fc.constantFrom(...CHARS), { minLength: 0, maxLength: 7 }).map((c) => c.join(''));
  const name = text.filter((t) => t.length > 0);
  const term = fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 4 }).map((c) => c.join(''));
  const COUNTRIES = ['BD', 'IN'];
  const STATES = ['A', 'B', 'C'];

  const dataSetArbitrary = fc
    .record({
      banks: fc.uniqueArray(
        fc.record({ country: fc.constantFrom(...COUNTRIES), code: fc.constantFrom('AB', 'CD', 'EF', 'GH'), name }),
        {
          minLength: 1,
          maxLength: 6,
          selector: (b) => `${b.country}|${b.code}|${b.name}`,
        },
      ),
      branches: fc.array(
        fc.record({
          bank: fc.nat(),
          routingNumber: fc.option(fc.constantFrom('R1', 'R2', 'R3', 'AB', 'r1'), { nil: null }),
          branchName: name,
          addressLine1: fc.option(text, { nil: null }),
          addressLine2: fc.option(text, { nil: null }),
          district: fc.option(text, { nil: null }),
          state: fc.option(fc.constantFrom(...STATES), { nil: null }),
        }),
        { maxLength: 80 },
      ),
      offices: fc.uniqueArray(
        fc.record({
          code: fc.constantFrom('HOAAAA', 'HOBBBB', 'HOCCCC', 'HODDDD'),
          country: fc.constantFrom(...COUNTRIES),
          name,
          modes: fc.subarray([1, 4, 5], { minLength: 1 }),
          banks: fc.subarray(['AB', 'CD', 'EF', 'GH'], { minLength: 1 }),
        }),
        { minLength: 1, maxLength: 4, selector: (h) => h.code },
      ),
      agents: fc.array(
        fc.record({
          office: fc.nat(),
          code: fc.constantFrom('X1', 'X2', 'x1', 'Y', 'Z9', 'A0'),
          name,
          state: fc.constantFrom(...STATES),
          country: fc.constantFrom(...COUNTRIES),
        }),
        { maxLength: 60 },
      ),
    })
    .map(({ banks, branches, offices, agents }): DataSet => ({
      countries: COUNTRIES.map((code) => ({ code, name: code, currency: 'XXX' })),
      deliveryModes: [1, 4, 5].map((value) => ({ value, name: String(value) })),
      states: COUNTRIES.flatMap((country) =>
        STATES.slice(0, 2).map((code) => ({ country, code, name: `${country}-${code}` })),
      ),
      cities: [],
      headOffices: offices.map((h) => ({
        code: h.code,
        country: h.country,
        name: h.name,
        networkName: h.name,
        payoutType: 'O',
        deliveryModes: h.modes,
        bankCodes: h.banks,
        demoLocations: 0,
      })),
      branches: branches.map((b) => {
        const bank = banks[b.bank % banks.length];
        return {
          country: bank.country,
          bankCode: bank.code,
          bankName: bank.name,
          routingNumber: b.routingNumber,
          branchName: b.branchName,
          addressLine1: b.addressLine1,
          addressLine2: b.addressLine2,
          city: null,
          district: b.district,
          state: b.state,
        };
      }),
      // Agent codes are unique per data set (the importer refuses duplicates).
      agents: agents.map((a, i) => {
        const office = offices[a.office % offices.length];
        return {
          agentCode: `${a.code}${i}`,
          headOfficeCode: office.code,
          country: a.country,
          agentName: a.name,
          addressLine1: 'x',
          addressLine2: null,
          city: 'c',
          state: a.state,
          phoneNumber: null,
        };
      }),
      sources: [],
    }));

  /**
   * A term that often matches: a piece of one of the values (of any row and column), sometimes in the other
   * case, sometimes an arbitrary string.
   */
  const termFrom = (values: string[]) =>
    fc.oneof(
      {
        weight: 4,
        arbitrary:
          values.length === 0
            ? term
            : fc.tuple(fc.constantFrom(...values), fc.nat(), fc.nat(), fc.boolean()).map(([v, at, length, flip]) => {
                const chars = [...v];
                const start = at % Math.max(1, chars.length);
                const piece = chars.slice(start, start + 1 + (length % 4)).join('') || 'a';
                return flip ? (piece === piece.toLowerCase() ? piece.toUpperCase() : piece.toLowerCase()) : piece;
              }),
      },
      { weight: 1, arbitrary: term },
    );
  const textsOf = (dataSet: DataSet) =>
    [
      ...new Set([
        ...dataSet.branches.flatMap((b) => [b.bankName, b.branchName, b.addressLine1, b.addressLine2, b.district]),
        ...dataSet.agents.map((a) => a.agentName),
        ...dataSet.headOffices.map((h) => h.name),
      ]),
    ].filter((v): v is string => !!v);

  // Each filter is given in about a third of the searches, so that their combinations still find rows.
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { freq: 2, nil: undefined });
  // Mostly a head office of the data set, its country and a mode it offers; sometimes any.
  const officeOf = (dataSet: DataSet) =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(...dataSet.headOffices).chain((h) =>
          fc.record({
            code: fc.constant(h.code),
            country: fc.constant(h.country),
            mode: fc.constantFrom(...h.deliveryModes),
          }),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          code: fc.constantFrom('HOAAAA', 'HOBBBB', 'HOCCCC', 'HODDDD'),
          country: fc.constantFrom(...COUNTRIES),
          mode: fc.constantFrom(1, 4, 5),
        }),
      },
    );
  const branchQuery = (dataSet: DataSet, values: string[]) =>
    fc
      .record({
        office: officeOf(dataSet),
        bankName: sometimes(termFrom(values)),
        bankCode: sometimes(fc.constantFrom('AB', 'CD', 'R1', 'R2', 'ZZ')),
        branchLocation: sometimes(termFrom(values)),
        address: sometimes(termFrom(values)),
        district: sometimes(termFrom(values)),
      })
      .map(({ office, ...filters }) => ({
        receivingCountry: office.country,
        deliveryMode: office.mode === 1 ? 1 : 4,
        receivingAgentHeadOfficeCode: office.code,
        ...filters,
      }));
  const agentQuery = (dataSet: DataSet, values: string[]) =>
    fc
      .record({
        office: officeOf(dataSet),
        state: sometimes(fc.constantFrom(...STATES)),
        search: sometimes(
          fc.oneof(
            termFrom(values),
            fc.tuple(termFrom(values), termFrom(values)).map(([a, b]) => `${a}, ${b}`),
            fc.constant(','),
          ),
        ),
      })
      .map(({ office, ...filters }) => ({ receivingCountry: office.country, deliveryMode: office.mode, ...filters }));
  const caseArbitrary = dataSetArbitrary.chain((dataSet) =>
    fc.tuple(
      fc.constant(dataSet),
      fc.array(branchQuery(dataSet, textsOf(dataSet)), { minLength: 1, maxLength: 10 }),
      fc.array(agentQuery(dataSet, textsOf(dataSet)), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 5 }),
    ),
  );

  it('answers every filter combination as the plain rules do, on every page and past the end', () => {
    let matched = 0;
    fc.assert(
      fc.property(caseArbitrary, ([dataSet, branchQueries, agentQueries, pageSize]) => {
        const index = new SearchIndex(buildSearchIndex(dataSet, '1'));
        const brute = new BruteForce(dataSet);
        for (const q of branchQueries) expectSameBranches(index, brute, q, pageSize);
        for (const q of agentQueries) expectSameAgents(index, brute, q, pageSize);
        matched +=
          branchQueries.filter((q) => brute.branches(q).length > 0).length +
          agentQueries.filter((q) => brute.agents(q).length > 0).length;
      }),
      { numRuns: 300 },
    );
    // The generated searches find rows often enough to test something.
    expect(matched).toBeGreaterThan(300);
  });
});
