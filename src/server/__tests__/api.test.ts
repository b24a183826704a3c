import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvRows } from '../../testing/csv-rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentsResponse,
  branchesResponse,
  citiesResponse,
  dataStatusResponse,
  deliveryModesResponse,
  payoutNetworksResponse,
  problem,
  receivingCountriesResponse,
  statesResponse,
  type Agent,
  type BankBranch,
} from '../../contract';
import { SEED_DIR } from '../seed/seed';
import { createTestApp, testEngines, type TestApp } from '../../testing/test-app';

// The API suite: through the real HTTP app (app.inject) on the real store holding the real
// reference data, on every store engine. Expected values are computed from the shipped CSV files, not typed in.

interface BranchCsv {
  country: string;
  bank_code: string;
  bank_name: string;
  routing_number: string;
  branch_name: string;
  address_line1: string;
  address_line2: string;
  district: string;
}
const branchCsv = (country: string) =>
  csvRows(readFileSync(join(SEED_DIR, 'bank-branches', `${country}.csv`))) as unknown as BranchCsv[];
const partners = csvRows(readFileSync(join(SEED_DIR, 'partners.csv')));
const banksOf = (headOffice: string) => {
  const partner = partners.find((p) => p.head_office_code === headOffice)!;
  return partner.routes_to_banks === '*' ? null : new Set(partner.routes_to_banks.split(' '));
};

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(testEngines())('lookup API on the %s store', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine });
  });
  afterAll(async () => {
    await t.close();
  });

  const ok = async (path: string, query: Record<string, string | string[]> = {}) => {
    const res = await t.get(path, query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json();
  };
  const bad = async (path: string, query: Record<string, string | string[]>, headers?: Record<string, string>) => {
    const res = await t.get(path, query, headers);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    return problem.parse(res.json());
  };
  const problemFor = async (
    path: string,
    query: Record<string, string | string[]>,
    name: string,
    headers?: Record<string, string>,
  ) => {
    const body = await bad(path, query, headers);
    const entry = body.errors.find((e) => e.name === name);
    expect(entry, JSON.stringify(body.errors)).toBeDefined();
    return entry!;
  };

  describe('happy paths', () => {
    it('GET /v1/receiving-countries lists the served countries with currency and modes', async () => {
      const body = receivingCountriesResponse.parse(await ok('/v1/receiving-countries'));
      const served = [...new Set(partners.map((p) => p.country))].sort();
      expect(body.data.map((c) => c.code)).toEqual(served);
      const india = body.data.find((c) => c.code === 'IN')!;
      expect(india).toMatchObject({ name: 'India', currency: 'INR', deliveryModes: ['04'] });
      expect(body.data.find((c) => c.code === 'BD')!.deliveryModes).toEqual(['01', '03', '04', '05']);
    });

    it('GET /v1/types?filter=delivery-modes lists code, value and name', async () => {
      const body = deliveryModesResponse.parse(await ok('/v1/types', { filter: 'delivery-modes' }));
      expect(body.data).toContainEqual({ code: '04', value: 4, name: 'Account Transfer to Other Bank' });
      expect(body.data.map((m) => m.code)).toEqual(['01', '02', '03', '04', '05']);
    });

    it('GET /v1/states gives ISO 3166-2 codes without the country prefix', async () => {
      const india = statesResponse.parse(await ok('/v1/states', { receivingCountry: 'IN' }));
      expect(india.data).toContainEqual({ code: 'MH', name: 'Maharashtra' });
      const bangladesh = statesResponse.parse(await ok('/v1/states', { receivingCountry: 'BD' }));
      // Bangladesh's states are its eight divisions; districts are the branch finder's own filter.
      expect(bangladesh.data).toHaveLength(8);
      expect(bangladesh.data).toContainEqual({ code: 'C', name: 'Dhaka Division' });
    });

    it('GET /v1/cities lists the cities of a state', async () => {
      const body = citiesResponse.parse(await ok('/v1/cities', { receivingCountry: 'IN', state: 'MH' }));
      expect(body.data.length).toBeGreaterThan(50);
      expect(body.data.map((c) => c.name)).toContain('Pune');
      expect(new Set(body.data.map((c) => c.state))).toEqual(new Set(['MH']));
    });

    it('GET /v1/agents pages the agents of a country and delivery mode', async () => {
      const body = agentsResponse.parse(await ok('/v1/agents', { receivingCountry: 'MX', deliveryMode: '1' }));
      const expected = partners
        .filter((p) => p.country === 'MX' && p.delivery_modes.split(' ').includes('01'))
        .reduce((sum, p) => sum + Number(p.demo_locations), 0);
      expect(body.pagination).toEqual({
        pageNumber: 1,
        pageSize: 50,
        totalItems: expected,
        totalPages: Math.ceil(expected / 50),
      });
      expect(body.data).toHaveLength(50);
      expect(body.recommendation).toBeUndefined();
      for (const agent of body.data) {
        expect(agent.receivingCountry).toBe('MX');
        expect(agent.deliveryModes).toContain('01');
        expect(agent.agentCode).toMatch(/^[A-Z]{6}\d{5}$/);
        expect(agent.phoneNumber).toMatch(/^\+52 /);
      }
    });

    it('GET /v1/agents filters by state, and the state is normalised to its code', async () => {
      const body = agentsResponse.parse(
        await ok('/v1/agents', { receivingCountry: 'MX', deliveryMode: '01', state: 'JAL', pageSize: '1000' }),
      );
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.every((a) => a.state === 'JAL' && a.stateName === 'Jalisco')).toBe(true);
    });

    it('GET /v1/payout-networks gives the networks with the payout type and its meaning', async () => {
      const body = payoutNetworksResponse.parse(
        await ok('/v1/payout-networks', { receivingCountry: 'BD', deliveryMode: '04' }),
      );
      const expected = partners.filter((p) => p.country === 'BD' && p.delivery_modes.split(' ').includes('04'));
      expect(body.data.map((n) => n.receivingAgentHeadOfficeCode).sort()).toEqual(
        expected.map((p) => p.head_office_code).sort(),
      );
      expect(body.data[0]).toMatchObject({
        payoutType: 'N',
        payoutTypeDescription: 'Payout anywhere within the network',
        deliveryMode: '04',
        receivingCountry: 'BD',
      });
      const kenya = payoutNetworksResponse.parse(
        await ok('/v1/payout-networks', { receivingCountry: 'KE', deliveryMode: '5' }),
      );
      expect(kenya.data).toEqual([
        expect.objectContaining({
          receivingAgentHeadOfficeCode: 'MPESKE',
          networkName: 'M-Pesa',
          payoutType: 'C',
          payoutTypeDescription: 'Payout anywhere within the country',
        }),
      ]);
    });

    it('GET /v1/banks/branches gives the branches of the banks the head office pays into', async () => {
      const body = branchesResponse.parse(
        await ok('/v1/banks/branches', {
          receivingCountry: 'NG',
          deliveryMode: '04',
          receivingAgentHeadOfficeCode: 'FRBKNG',
        }),
      );
      const routed = banksOf('FRBKNG')!;
      expect(body.pagination.totalItems).toBe(branchCsv('NG').filter((b) => routed.has(b.bank_code)).length);
      expect(body.data.every((b) => routed.has(b.bankCode) && b.receivingAgentHeadOfficeCode === 'FRBKNG')).toBe(true);
      // Nigeria publishes no branch routing numbers.
      expect(body.data[0].routingNumber).toBeNull();
    });

    it('GET /v1/banks/branches: bankName, branchLocation and address are case-insensitive contains', async () => {
      const rows = branchCsv('IN');
      const body = branchesResponse.parse(
        await ok('/v1/banks/branches', {
          receivingCountry: 'IN',
          deliveryMode: '4',
          receivingAgentHeadOfficeCode: 'ICICIN',
          bankName: 'Abhyudaya',
          branchLocation: 'mumbai',
          address: 'maharashtra',
          pageSize: '1000',
        }),
      );
      const expected = rows.filter(
        (b) =>
          b.bank_name.toLowerCase().includes('abhyudaya') &&
          b.address_line1.toLowerCase().includes('mumbai') &&
          b.address_line2.toLowerCase().includes('maharashtra'),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(body.pagination.totalItems).toBe(expected.length);
      expect(body.data.map((b) => b.routingNumber).sort()).toEqual(expected.map((b) => b.routing_number).sort());
    });

    it('GET /v1/banks/branches: bankCode matches the bank code or a routing number exactly', async () => {
      const query = { receivingCountry: 'BD', deliveryMode: '4', receivingAgentHeadOfficeCode: 'SONLBD' };
      const byBank = branchesResponse.parse(await ok('/v1/banks/branches', { ...query, bankCode: '010' }));
      expect(byBank.pagination.totalItems).toBe(branchCsv('BD').filter((b) => b.bank_code === '010').length);
      const routing = branchCsv('BD').find((b) => b.bank_code === '010')!.routing_number;
      const byRouting = branchesResponse.parse(await ok('/v1/banks/branches', { ...query, bankCode: routing }));
      expect(byRouting.data.map((b) => b.routingNumber)).toEqual([routing]);
      const ifsc = branchesResponse.parse(
        await ok('/v1/banks/branches', {
          receivingCountry: 'IN',
          deliveryMode: '4',
          receivingAgentHeadOfficeCode: 'ICICIN',
          bankCode: 'abhy0065002',
        }),
      );
      expect(ifsc.data.map((b) => b.routingNumber)).toEqual(['ABHY0065002']);
    });

    it('GET /v1/data-status names the files being served', async () => {
      const body = dataStatusResponse.parse(await ok('/v1/data-status'));
      expect(body.data.map((s) => `${s.kind}:${s.file}`)).toEqual(
        expect.arrayContaining(['partners:partners.csv', 'branches:BD.csv', 'branches:IN.csv', 'branches:NG.csv']),
      );
      expect(body.data.find((s) => s.file === 'BD.csv')!.rows).toBe(branchCsv('BD').length);
    });
  });

  describe('agent search (spec §4.1)', () => {
    it('is a case-sensitive contains on agent name or head office name', async () => {
      const exact = agentsResponse.parse(
        await ok('/v1/agents', { receivingCountry: 'PH', deliveryMode: '1', search: 'Cebuana', pageSize: '1000' }),
      );
      expect(exact.pagination.totalItems).toBe(
        Number(partners.find((p) => p.head_office_code === 'CEBLPH')!.demo_locations),
      );
      const lower = agentsResponse.parse(
        await ok('/v1/agents', { receivingCountry: 'PH', deliveryMode: '1', search: 'cebuana' }),
      );
      expect(lower.pagination.totalItems).toBe(0);
      // Head office names are upper case in partners.csv: "LHUILLIER" finds both Lhuillier networks by head office.
      const byHeadOffice = agentsResponse.parse(
        await ok('/v1/agents', { receivingCountry: 'PH', deliveryMode: '1', search: 'LHUILLIER' }),
      );
      const lhuillier = partners.filter((p) => p.country === 'PH' && p.head_office_name.includes('LHUILLIER'));
      expect(byHeadOffice.pagination.totalItems).toBe(lhuillier.reduce((s, p) => s + Number(p.demo_locations), 0));
    });

    it('with delivery mode 04 answers from bank branches, searches "[Bank Name], [Branch Name]" and recommends /v1/banks/branches', async () => {
      const body = agentsResponse.parse(
        await ok('/v1/agents', {
          receivingCountry: 'BD',
          deliveryMode: '04',
          search: 'SONALI BANK, AGR',
          pageSize: '1000',
        }),
      );
      const expected = branchCsv('BD').filter(
        (b) => b.bank_name.includes('SONALI BANK') && b.branch_name.includes('AGR'),
      );
      // Both mode-04 head offices of Bangladesh route to Sonali Bank (BRACBD: all banks; SONLBD: its list).
      const offices = partners.filter((p) => p.country === 'BD' && p.delivery_modes.includes('04'));
      const expectedRows = offices.flatMap((p) => {
        const banks = banksOf(p.head_office_code);
        return expected.filter((b) => !banks || banks.has(b.bank_code));
      });
      expect(expected.length).toBeGreaterThan(0);
      expect(body.pagination.totalItems).toBe(expectedRows.length);
      expect(
        body.data.every(
          (a: Agent) =>
            a.bankName!.includes('SONALI BANK') && a.agentName.includes('AGR') && a.deliveryModes.join() === '04',
        ),
      ).toBe(true);
      expect(body.recommendation?.recommendedOperation).toBe('/v1/banks/branches');
    });
  });

  describe('spec rules', () => {
    it("a bank code outside the head office's banks gives 200 with empty data", async () => {
      const outside = branchCsv('BD').find((b) => !banksOf('SONLBD')!.has(b.bank_code))!;
      const body = branchesResponse.parse(
        await ok('/v1/banks/branches', {
          receivingCountry: 'BD',
          deliveryMode: '4',
          receivingAgentHeadOfficeCode: 'SONLBD',
          bankCode: outside.bank_code,
        }),
      );
      expect(body).toEqual({ data: [], pagination: { pageNumber: 1, pageSize: 50, totalItems: 0, totalPages: 0 } });
      const unknownOffice = branchesResponse.parse(
        await ok('/v1/banks/branches', {
          receivingCountry: 'BD',
          deliveryMode: '4',
          receivingAgentHeadOfficeCode: 'ZZZZZZ',
        }),
      );
      expect(unknownOffice.data).toEqual([]);
    });

    it('district applies to Bangladesh: a contains filter there, a 400 elsewhere', async () => {
      const body = branchesResponse.parse(
        await ok('/v1/banks/branches', {
          receivingCountry: 'BD',
          deliveryMode: '4',
          receivingAgentHeadOfficeCode: 'BRACBD',
          district: 'cox',
          pageSize: '1000',
        }),
      );
      expect(body.pagination.totalItems).toBe(
        branchCsv('BD').filter((b) => b.district.toLowerCase().includes('cox')).length,
      );
      expect(body.data.every((b: BankBranch) => b.district === "Cox's Bazar")).toBe(true);
      const error = await problemFor(
        '/v1/banks/branches',
        { receivingCountry: 'IN', deliveryMode: '4', receivingAgentHeadOfficeCode: 'ICICIN', district: 'PUNE' },
        'district',
      );
      expect(error.message).toMatch(/Bangladesh/);
    });

    it('a place under its other name: district and address accept Chittagong for Chattogram', async () => {
      const query = {
        receivingCountry: 'BD',
        deliveryMode: '4',
        receivingAgentHeadOfficeCode: 'BRACBD',
        pageSize: '1',
      };
      const expected = branchCsv('BD').filter((b) => b.district === 'Chattogram').length;
      for (const filter of [{ district: 'Chittagong' }, { district: 'chittagong' }, { district: 'Chattogram' }]) {
        expect(
          branchesResponse.parse(await ok('/v1/banks/branches', { ...query, ...filter })).pagination.totalItems,
        ).toBe(expected);
      }
      const onLine2 = branchCsv('BD').filter((b) => b.address_line2.toLowerCase().includes('barishal')).length;
      expect(
        branchesResponse.parse(await ok('/v1/banks/branches', { ...query, address: 'Barisal' })).pagination.totalItems,
      ).toBe(onLine2);
    });

    it('wildcards in user text match literally', async () => {
      const india = {
        receivingCountry: 'IN',
        deliveryMode: '4',
        receivingAgentHeadOfficeCode: 'ICICIN',
        pageSize: '1000',
      };
      const rows = branchCsv('IN');
      for (const text of ['._K', '[IOC]', '*', 'CAMP[US']) {
        const body = branchesResponse.parse(await ok('/v1/banks/branches', { ...india, branchLocation: text }));
        const expected = rows.filter((b) => b.address_line1.toLowerCase().includes(text.toLowerCase()));
        expect(expected.length, text).toBeGreaterThan(0);
        expect(body.pagination.totalItems, text).toBe(expected.length);
      }
      for (const text of ['%', '_', '?', '%BANK%', 'S_ATE']) {
        const body = branchesResponse.parse(await ok('/v1/banks/branches', { ...india, bankName: text }));
        expect(body.pagination.totalItems, text).toBe(
          rows.filter((b) => b.bank_name.toLowerCase().includes(text.toLowerCase())).length,
        );
      }
      const agents = agentsResponse.parse(
        await ok('/v1/agents', { receivingCountry: 'MX', deliveryMode: '1', search: '%' }),
      );
      expect(agents.pagination.totalItems).toBe(0);
    });

    it('"4" and "04" are the same delivery mode', async () => {
      const a = await ok('/v1/payout-networks', { receivingCountry: 'IN', deliveryMode: '4' });
      const b = await ok('/v1/payout-networks', { receivingCountry: 'IN', deliveryMode: '0004' });
      expect(a).toEqual(b);
      expect(a.data.length).toBe(2);
    });
  });

  describe('paging', () => {
    const query = { receivingCountry: 'NG', deliveryMode: '4', receivingAgentHeadOfficeCode: 'FRBKNG' };
    let total = 0;
    beforeAll(async () => {
      total = (await ok('/v1/banks/branches', query)).pagination.totalItems;
    });

    it('the last page holds the remainder, a page past the end is 200 and empty', async () => {
      const pageSize = 7;
      const lastPage = Math.ceil(total / pageSize);
      const last = branchesResponse.parse(
        await ok('/v1/banks/branches', { ...query, pageSize: String(pageSize), pageNumber: String(lastPage) }),
      );
      expect(last.data).toHaveLength(total - (lastPage - 1) * pageSize);
      expect(last.pagination).toEqual({ pageNumber: lastPage, pageSize, totalItems: total, totalPages: lastPage });
      const past = branchesResponse.parse(
        await ok('/v1/banks/branches', { ...query, pageSize: String(pageSize), pageNumber: String(lastPage + 1) }),
      );
      expect(past.data).toEqual([]);
      expect(past.pagination.totalItems).toBe(total);
      const farthest = branchesResponse.parse(await ok('/v1/banks/branches', { ...query, pageNumber: '2147483647' }));
      expect(farthest.data).toEqual([]);
    });

    it('pageSize 1000 is accepted and the order is stable: pages never repeat or skip a row', async () => {
      const whole = branchesResponse.parse(await ok('/v1/banks/branches', { ...query, pageSize: '1000' }));
      expect(whole.data).toHaveLength(Math.min(1000, total));
      const paged: BankBranch[] = [];
      for (let page = 1; paged.length < whole.data.length; page++) {
        paged.push(
          ...branchesResponse.parse(
            await ok('/v1/banks/branches', { ...query, pageSize: '97', pageNumber: String(page) }),
          ).data,
        );
      }
      expect(paged.slice(0, whole.data.length)).toEqual(whole.data);
      const agentsWhole = agentsResponse.parse(
        await ok('/v1/agents', { receivingCountry: 'NP', deliveryMode: '1', pageSize: '300' }),
      );
      const agentPages = [1, 2, 3].map((n) =>
        ok('/v1/agents', { receivingCountry: 'NP', deliveryMode: '1', pageSize: '100', pageNumber: String(n) }),
      );
      expect((await Promise.all(agentPages)).flatMap((p) => p.data)).toEqual(agentsWhole.data);
    });
  });

  describe('validation: one 400 per rule, in the problem+json shape', () => {
    const agents = { receivingCountry: 'MX', deliveryMode: '1' };

    it('receivingCountry must be a served ISO alpha-2 code (pointing to /v1/receiving-countries)', async () => {
      expect(
        (await problemFor('/v1/agents', { ...agents, receivingCountry: 'US' }, 'receivingCountry')).message,
      ).toMatch('/v1/receiving-countries');
      expect(
        (await problemFor('/v1/agents', { ...agents, receivingCountry: 'mx' }, 'receivingCountry')).message,
      ).toMatch(/alpha-2/);
      expect(
        (await problemFor('/v1/payout-networks', { deliveryMode: '1', receivingCountry: 'MEX' }, 'receivingCountry'))
          .message,
      ).toMatch(/alpha-2/);
      await problemFor('/v1/states', {}, 'receivingCountry');
    });

    it('deliveryMode must be an int32 > 0, in the catalog, and offered for the country', async () => {
      await problemFor('/v1/agents', { ...agents, deliveryMode: '0' }, 'deliveryMode');
      await problemFor('/v1/payout-networks', { receivingCountry: 'MX', deliveryMode: '2147483648' }, 'deliveryMode');
      expect((await problemFor('/v1/agents', { ...agents, deliveryMode: '9' }, 'deliveryMode')).message).toMatch(
        '/v1/types?filter=delivery-modes',
      );
      // India takes account transfers only as 04.
      expect(
        (await problemFor('/v1/agents', { receivingCountry: 'IN', deliveryMode: '1' }, 'deliveryMode')).message,
      ).toMatch(/offered: 04/);
      expect(
        (
          await problemFor(
            '/v1/banks/branches',
            { receivingCountry: 'BD', deliveryMode: '1', receivingAgentHeadOfficeCode: 'BRACBD' },
            'deliveryMode',
          )
        ).message,
      ).toMatch(/04/);
    });

    it('decimals, exponents, signs, spaces, empty and repeated numbers are refused', async () => {
      for (const value of ['1.0', '1e2', '+1', '-1', ' 1', '0x1', '', '１']) {
        await problemFor('/v1/agents', { ...agents, pageNumber: value }, 'pageNumber');
      }
      expect((await problemFor('/v1/agents', { ...agents, pageSize: ['10', '20'] }, 'pageSize')).message).toMatch(
        /repeated/,
      );
      expect((await problemFor('/v1/agents', { ...agents, deliveryMode: ['1', '1'] }, 'deliveryMode')).message).toMatch(
        /repeated/,
      );
    });

    it('pageNumber is 1 to 2147483647 and pageSize 1 to 1000', async () => {
      await problemFor('/v1/agents', { ...agents, pageNumber: '0' }, 'pageNumber');
      await problemFor('/v1/agents', { ...agents, pageNumber: '2147483648' }, 'pageNumber');
      await problemFor('/v1/agents', { ...agents, pageNumber: '99999999999999999999' }, 'pageNumber');
      await problemFor('/v1/agents', { ...agents, pageSize: '0' }, 'pageSize');
      expect((await problemFor('/v1/agents', { ...agents, pageSize: '1001' }, 'pageSize')).message).toBe(
        'must be between 1 and 1000',
      );
    });

    it('free text over 100 characters is refused; 100 is accepted', async () => {
      await problemFor('/v1/agents', { ...agents, search: 'x'.repeat(101) }, 'search');
      await problemFor(
        '/v1/banks/branches',
        { receivingCountry: 'BD', deliveryMode: '4', receivingAgentHeadOfficeCode: 'BRACBD', address: 'é'.repeat(101) },
        'address',
      );
      expect((await ok('/v1/agents', { ...agents, search: 'x'.repeat(100) })).pagination.totalItems).toBe(0);
    });

    it('a state not of the country is refused (pointing to /v1/states)', async () => {
      expect((await problemFor('/v1/agents', { ...agents, state: 'MH' }, 'state')).message).toMatch(
        '/v1/states?receivingCountry=MX',
      );
      await problemFor('/v1/agents', { ...agents, state: 'jal' }, 'state');
      await problemFor('/v1/cities', { receivingCountry: 'IN', state: 'JAL' }, 'state');
    });

    it('the head office code of the branch finder is six characters', async () => {
      await problemFor(
        '/v1/banks/branches',
        { receivingCountry: 'BD', deliveryMode: '4', receivingAgentHeadOfficeCode: 'BRAC' },
        'receivingAgentHeadOfficeCode',
      );
      await problemFor(
        '/v1/banks/branches',
        { receivingCountry: 'BD', deliveryMode: '4' },
        'receivingAgentHeadOfficeCode',
      );
    });

    it('types takes filter=delivery-modes only', async () => {
      await problemFor('/v1/types', { filter: 'countries' }, 'filter');
      await problemFor('/v1/types', {}, 'filter');
    });

    it('unknown and empty parameters are refused', async () => {
      expect((await problemFor('/v1/agents', { ...agents, pagesize: '10' }, 'pagesize')).message).toMatch(
        /not a parameter/,
      );
      await problemFor('/v1/agents', { ...agents, search: '' }, 'search');
    });

    it('x-fapi-financial-id is required and must match ^[A-Z]{2}[0-9A-Z]{4}$', async () => {
      const missing = await problemFor('/v1/receiving-countries', {}, 'x-fapi-financial-id', {});
      expect(missing.in).toBe('header');
      for (const id of ['ab12cd', 'A112CD', 'AB12C', 'AB12CDE', 'AB-2CD']) {
        await problemFor('/v1/receiving-countries', {}, 'x-fapi-financial-id', { 'x-fapi-financial-id': id });
      }
    });

    it('x-correlation-id and x-idempotency-key must be UUID-shaped', async () => {
      const headers = { 'x-fapi-financial-id': 'AB12CD', 'x-correlation-id': 'not-a-uuid', 'x-idempotency-key': '123' };
      const body = await bad('/v1/receiving-countries', {}, headers);
      expect(body.errors.map((e) => e.name).sort()).toEqual(['x-correlation-id', 'x-idempotency-key']);
    });

    it('names every invalid parameter and header at once', async () => {
      const res = await t.get(
        '/v1/banks/branches',
        { receivingCountry: 'IN', deliveryMode: '1.5', pageSize: '0', district: 'x', foo: '1', bankName: ['a', 'b'] },
        {},
      );
      const body = problem.parse(res.json());
      expect(body).toMatchObject({ type: 'urn:problem:invalid-request', title: 'Invalid request', status: 400 });
      expect(body.errors.map((e) => `${e.in}:${e.name}`).sort()).toEqual(
        [
          'header:x-fapi-financial-id',
          'query:bankName',
          'query:deliveryMode',
          'query:district',
          'query:foo',
          'query:pageSize',
          'query:receivingAgentHeadOfficeCode',
        ].sort(),
      );
      expect(body.correlationId).toBe(res.headers['x-correlation-id']);
    });
  });

  describe('headers and errors', () => {
    it('echoes x-correlation-id and x-idempotency-key, on success and on errors', async () => {
      const correlation = '0f8fad5b-d9cb-469f-a165-70867728950e';
      const idempotency = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
      const headers = {
        'x-fapi-financial-id': 'AB12CD',
        'x-correlation-id': correlation,
        'x-idempotency-key': idempotency,
      };
      const success = await t.get('/v1/receiving-countries', {}, headers);
      expect(success.headers['x-correlation-id']).toBe(correlation);
      expect(success.headers['x-idempotency-key']).toBe(idempotency);
      const failure = await t.get('/v1/states', {}, headers);
      expect(failure.statusCode).toBe(400);
      expect(failure.headers['x-correlation-id']).toBe(correlation);
      expect(failure.headers['x-idempotency-key']).toBe(idempotency);
      expect(failure.json().correlationId).toBe(correlation);
    });

    it('gives a new UUID v4 correlation id when the request has none', async () => {
      const a = await t.get('/v1/receiving-countries');
      const b = await t.get('/v1/receiving-countries');
      expect(a.headers['x-correlation-id']).toMatch(UUID_V4);
      expect(b.headers['x-correlation-id']).toMatch(UUID_V4);
      expect(a.headers['x-correlation-id']).not.toBe(b.headers['x-correlation-id']);
      expect(a.headers['x-idempotency-key']).toBeUndefined();
    });

    it('unknown paths are 404 in the problem+json shape', async () => {
      const res = await t.get('/v1/agent-list');
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem.parse(res.json())).toMatchObject({
        status: 404,
        type: 'urn:problem:not-found',
        correlationId: res.headers['x-correlation-id'],
      });
    });
  });
});

describe('server errors', () => {
  it('a store failure is a 500 problem with nothing internal in it', async () => {
    const t = await createTestApp();
    try {
      // A real store whose database connection has gone away mid-life.
      await t.store.close();
      const res = await t.get('/v1/cities', { receivingCountry: 'IN', state: 'MH' });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const body = problem.parse(res.json());
      expect(body).toMatchObject({ status: 500, type: 'urn:problem:internal', errors: [] });
      expect(res.body).not.toMatch(/sqlite|database|SELECT|\.ts|at |stack|\/work\//i);
    } finally {
      await t.app.close();
    }
  });
});
