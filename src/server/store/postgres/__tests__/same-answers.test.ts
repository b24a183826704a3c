import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines, type TestApp } from '../../../../testing/test-app';

// The PostgreSQL store answers every lookup exactly as the SQLite store does: the same requests go to an
// app on each store and the bodies must be deep-equal (rows, order, nulls, totals, problems).

type Query = Record<string, string>;
const request = (path: string, query: Query = {}) => ({ path, query });

const branches = (query: Query) =>
  request('/v1/banks/branches', {
    receivingCountry: 'IN',
    deliveryMode: '04',
    receivingAgentHeadOfficeCode: 'ICICIN',
    ...query,
  });
const bdBranches = (query: Query) =>
  branches({ receivingCountry: 'BD', receivingAgentHeadOfficeCode: 'BRACBD', ...query });
const agents = (query: Query) => request('/v1/agents', query);

const REQUESTS = [
  // Reference lookups.
  request('/v1/receiving-countries'),
  request('/v1/types', { filter: 'delivery-modes' }),
  request('/v1/states', { receivingCountry: 'IN' }),
  request('/v1/states', { receivingCountry: 'MX' }),
  request('/v1/cities', { receivingCountry: 'MX', state: 'JAL' }),
  request('/v1/cities', { receivingCountry: 'BD', state: 'C' }),
  // Payout networks.
  ...['MX', 'BD', 'IN', 'NG', 'PH', 'KE'].flatMap((country) =>
    ['1', '3', '4', '5'].map((mode) =>
      request('/v1/payout-networks', { receivingCountry: country, deliveryMode: mode }),
    ),
  ),
  // Agent list: filters, case-sensitive search, wildcards taken literally, paging edges.
  agents({ receivingCountry: 'MX', deliveryMode: '01' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', pageNumber: '3', pageSize: '7' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', pageSize: '1000' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', pageNumber: '2147483647' }),
  agents({ receivingCountry: 'MX', deliveryMode: '02' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', state: 'JAL' }),
  agents({ receivingCountry: 'MX', deliveryMode: '03', state: 'CMX', search: 'ELEKTRA' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', search: 'OXXO' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', search: 'oxxo' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', search: 'Sucursal' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', search: 'a' }),
  agents({ receivingCountry: 'PH', deliveryMode: '01', search: 'Lhuillier', pageSize: '25', pageNumber: '4' }),
  agents({ receivingCountry: 'GT', deliveryMode: '01', search: 'G&T' }),
  ...['%', '_', '*', '?', '[', '%a', 'a_b', '[A-Z]', '\\'].map((search) =>
    agents({ receivingCountry: 'MX', deliveryMode: '01', search }),
  ),
  // Agent list for mode 04: "[Bank Name], [Branch Name]", a comma with one side empty, no comma.
  agents({ receivingCountry: 'IN', deliveryMode: '04' }),
  agents({ receivingCountry: 'IN', deliveryMode: '04', search: 'STATE BANK OF INDIA, MUMBAI' }),
  agents({ receivingCountry: 'IN', deliveryMode: '04', search: 'ALLAHABAD BANK, MANKA[PUR' }),
  agents({ receivingCountry: 'IN', deliveryMode: '04', search: 'BANK, ' }),
  agents({ receivingCountry: 'IN', deliveryMode: '04', search: ', NAGAR', pageNumber: '2' }),
  agents({ receivingCountry: 'IN', deliveryMode: '04', search: 'state bank of india, mumbai' }),
  agents({ receivingCountry: 'IN', deliveryMode: '04', search: 'FEDERAL' }),
  agents({ receivingCountry: 'IN', deliveryMode: '04', state: 'MH', search: 'BANK OF BARODA, ' }),
  agents({ receivingCountry: 'BD', deliveryMode: '04', search: 'SONALI BANK LIMITED, DHAKA' }),
  agents({ receivingCountry: 'BD', deliveryMode: '04', state: 'C', pageSize: '1000' }),
  agents({ receivingCountry: 'NG', deliveryMode: '04', search: 'ACCESS' }),
  // Bank branches: every filter, case-insensitive, wildcards literal, foreign bank code, paging edges.
  branches({}),
  branches({ pageNumber: '2', pageSize: '13' }),
  branches({ pageNumber: '100000' }),
  branches({ bankName: 'state bank' }),
  branches({ bankName: 'STATE BANK', branchLocation: 'mumbai' }),
  branches({ bankName: 'bAnK oF bArOdA', address: 'gujarat', pageSize: '1000' }),
  branches({ bankCode: 'SBIN' }),
  branches({ bankCode: 'sbin0000300' }),
  branches({ bankCode: 'ZZZZ' }),
  branches({ branchLocation: 'L._K' }),
  branches({ branchLocation: '[IOC]' }),
  branches({ branchLocation: '* POLICE' }),
  branches({ branchLocation: '%' }),
  branches({ branchLocation: '_' }),
  branches({ branchLocation: 'collector’s' }),
  branches({ branchLocation: '“SHIVAM”' }),
  branches({ receivingAgentHeadOfficeCode: 'FDRLIN', bankCode: 'HDFC' }),
  branches({ receivingAgentHeadOfficeCode: 'FDRLIN', bankName: 'canara' }),
  branches({ receivingAgentHeadOfficeCode: 'NOSUCH' }),
  bdBranches({ district: 'dhaka' }),
  bdBranches({ district: 'Chattogram', bankName: 'sonali', pageSize: '5', pageNumber: '3' }),
  bdBranches({ receivingAgentHeadOfficeCode: 'SONLBD', bankCode: '020' }),
  bdBranches({ receivingAgentHeadOfficeCode: 'SONLBD', bankCode: '200' }),
  bdBranches({ receivingAgentHeadOfficeCode: 'AGRABD' }),
  branches({ receivingCountry: 'NG', receivingAgentHeadOfficeCode: 'FRBKNG', address: 'lagos' }),
  // Bad input: the same 400 problems from both.
  agents({ receivingCountry: 'IN', deliveryMode: '01' }),
  agents({ receivingCountry: 'MX', deliveryMode: '01', state: 'ZZ' }),
  branches({ district: 'x' }),
  branches({ pageSize: '1001' }),
];

const engines = testEngines();

describe.skipIf(!engines.includes('postgres'))('PostgreSQL and SQLite stores give the same answers', () => {
  let sqlite: TestApp;
  let postgres: TestApp;
  beforeAll(async () => {
    // One after the other: the SQLite app builds its index inline, holding the event loop for seconds, which
    // would time out the PostgreSQL app's connection attempts made meanwhile.
    sqlite = await createTestApp({ engine: 'sqlite' });
    postgres = await createTestApp({ engine: 'postgres' });
  });
  afterAll(async () => {
    await Promise.all([sqlite?.close(), postgres?.close()]);
  });

  // The correlation id differs per request, and data-status's import time per load: everything else must match.
  const comparable = (body: Record<string, unknown>) => {
    const { correlationId: _correlationId, ...rest } = body;
    return rest;
  };

  it.each(REQUESTS.map((r) => [`${r.path}?${new URLSearchParams(r.query)}`, r] as const))('%s', async (_name, r) => {
    const [fromSqlite, fromPostgres] = await Promise.all([sqlite.get(r.path, r.query), postgres.get(r.path, r.query)]);
    expect(fromPostgres.statusCode).toBe(fromSqlite.statusCode);
    expect(comparable(fromPostgres.json())).toEqual(comparable(fromSqlite.json()));
  });

  it('serves data status of the same files', async () => {
    const strip = (body: { data: { importedAt: string }[] }) =>
      body.data.map(({ importedAt: _importedAt, ...source }) => source);
    const [fromSqlite, fromPostgres] = await Promise.all([
      sqlite.get('/v1/data-status'),
      postgres.get('/v1/data-status'),
    ]);
    expect(strip(fromPostgres.json())).toEqual(strip(fromSqlite.json()));
  });

  it('matches wildcards literally and searches agents case-sensitively', async () => {
    const total = async (r: { path: string; query: Query }) =>
      (await postgres.get(r.path, r.query)).json().pagination.totalItems;
    // Present literally in the data: exactly those rows, not every row.
    expect(await total(branches({ branchLocation: 'L._K' }))).toBe(1);
    // One branch, listed under both mode-04 head offices paying into ALLAHABAD BANK (ICICIN, FDRLIN).
    expect(
      await total(agents({ receivingCountry: 'IN', deliveryMode: '04', search: 'ALLAHABAD BANK, MANKA[PUR' })),
    ).toBe(2);
    // Absent literally: nothing, where an unescaped LIKE would have matched everything.
    expect(await total(branches({ branchLocation: '%' }))).toBe(0);
    expect(await total(agents({ receivingCountry: 'MX', deliveryMode: '01', search: '%' }))).toBe(0);
    expect(await total(agents({ receivingCountry: 'MX', deliveryMode: '01', search: 'OXXO' }))).toBeGreaterThan(0);
    expect(await total(agents({ receivingCountry: 'MX', deliveryMode: '01', search: 'oxxo' }))).toBe(0);
  });

  it('gives a data set back as it was loaded', async () => {
    const [fromSqlite, fromPostgres] = await Promise.all([
      sqlite.store.readDataSet().then((r) => r.dataSet),
      postgres.store.readDataSet().then((r) => r.dataSet),
    ]);
    // Each store stamps the time it was loaded; everything else must be the same.
    const withoutImportTimes = (dataSet: typeof fromSqlite) => ({
      ...dataSet,
      sources: dataSet.sources.map(({ importedAt: _importedAt, ...source }) => source),
    });
    expect(withoutImportTimes(fromPostgres)).toEqual(withoutImportTimes(fromSqlite));
    expect(fromPostgres.sources.every((s) => typeof s.importedAt === 'string')).toBe(true);
  });
});
