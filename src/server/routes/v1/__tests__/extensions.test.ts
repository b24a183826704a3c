import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { csvRows } from '../../../../testing/csv-rows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_CODE_LENGTH,
  branchDetailResponse,
  branchesResponse,
  browseResponse,
  codeLookupResponse,
  problem,
  type BrowseResponse,
  type CodeLookupResponse,
} from '../../../../contract';
import { SEED_DIR } from '../../../seed/seed';
import { createTestApp, testEngines, type TestApp } from '../../../../testing/test-app';

// The API extensions: GET /v1/codes/{code} and GET /v1/banks/browse, through the real app on the
// real data of every store engine. Expected values come from the shipped CSV files and Razorpay's IFSC list.

interface BranchCsv {
  country: string;
  bank_code: string;
  bank_name: string;
  routing_number: string;
  branch_name: string;
  district: string;
}
const branchCsv = (country: string) =>
  csvRows(readFileSync(join(SEED_DIR, 'bank-branches', `${country}.csv`))) as unknown as BranchCsv[];
const partners = csvRows(readFileSync(join(SEED_DIR, 'partners.csv')));
/** Mode-04 head offices of the country whose routes_to_banks hold the bank ("*": every bank of the country). */
const payingInto = (country: string, bankCode: string) =>
  partners
    .filter((p) => p.country === country && p.delivery_modes.split(' ').includes('04'))
    .filter((p) => p.routes_to_banks === '*' || p.routes_to_banks.split(' ').includes(bankCode))
    .map((p) => ({ receivingAgentHeadOfficeCode: p.head_office_code, headOfficeName: p.head_office_name }))
    .sort((x, y) => x.receivingAgentHeadOfficeCode.localeCompare(y.receivingAgentHeadOfficeCode));
const byCode = <T extends { receivingAgentHeadOfficeCode: string }>(list: T[]) =>
  [...list].sort((x, y) => x.receivingAgentHeadOfficeCode.localeCompare(y.receivingAgentHeadOfficeCode));

const IN = branchCsv('IN');
const BD = branchCsv('BD');
const NG = branchCsv('NG');

describe.each(testEngines())('code lookup and browsing on the %s store', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine });
  });
  afterAll(async () => {
    await t.close();
  });

  const lookup = async (code: string): Promise<CodeLookupResponse> => {
    const res = await t.get(`/v1/codes/${encodeURIComponent(code)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-data-version']).toMatch(/.+/);
    expect(res.headers['cache-control']).toBe('no-store');
    return codeLookupResponse.parse(res.json());
  };
  const browse = async (query: Record<string, string>): Promise<BrowseResponse> => {
    const res = await t.get('/v1/banks/browse', { deliveryMode: '04', pageSize: '1000', ...query });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-data-version']).toMatch(/.+/);
    return browseResponse.parse(res.json());
  };
  const branchesTotal = async (query: Record<string, string>) => {
    const res = await t.get('/v1/banks/branches', { deliveryMode: '04', pageSize: '1', ...query });
    expect(res.statusCode, res.body).toBe(200);
    return branchesResponse.parse(res.json()).pagination.totalItems;
  };

  describe('branch ids and GET /v1/banks/branches/{branchId}', () => {
    const allBranches = async (query: Record<string, string>) => {
      const rows = [];
      for (let pageNumber = 1; ; pageNumber++) {
        const res = await t.get('/v1/banks/branches', {
          deliveryMode: '04',
          pageSize: '1000',
          pageNumber: String(pageNumber),
          ...query,
        });
        expect(res.statusCode, res.body).toBe(200);
        const page = branchesResponse.parse(res.json());
        rows.push(...page.data);
        if (pageNumber >= page.pagination.totalPages) return rows;
      }
    };

    it('every Nigeria branch has its own id, though 27 bank + branch-name pairs occur twice', async () => {
      const rows = await allBranches({ receivingCountry: 'NG', receivingAgentHeadOfficeCode: 'ACCSNG' });
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.branchId)).size).toBe(rows.length);
      for (const row of rows) expect(row.branchId).toMatch(/^NG-[a-z2-7]{13}(-\d+)?$/);
      const pairs = new Map<string, number>();
      for (const row of NG)
        pairs.set(`${row.bank_code}|${row.branch_name}`, (pairs.get(`${row.bank_code}|${row.branch_name}`) ?? 0) + 1);
      expect([...pairs.values()].filter((n) => n > 1)).toHaveLength(27);
    });

    it('a branch with a routing number is known by it; the detail gives every field and who pays into it', async () => {
      const [branch] = await allBranches({
        receivingCountry: 'IN',
        receivingAgentHeadOfficeCode: 'FDRLIN',
        bankCode: 'BARB',
        pageSize: '1',
      });
      expect(branch.branchId).toBe(`IN-${branch.routingNumber}`);
      const res = await t.get(`/v1/banks/branches/${branch.branchId}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const { data } = branchDetailResponse.parse(res.json());
      const { receivingAgentHeadOfficeCode: _office, ...fields } = branch;
      expect(data).toMatchObject({ ...fields, receivingCountryName: 'India', branchCodeName: 'IFSC' });
      expect(byCode(data.headOffices)).toEqual(payingInto('IN', branch.bankCode));
      expect(data.headOffices.map((h) => h.receivingAgentHeadOfficeCode)).toContain('FDRLIN');
      // Fields the branch files do not carry yet are null: "not held".
      expect(data).toMatchObject({ micr: null, swift: null, contact: null, neft: null, upi: null });
    });

    it('a Bangladesh branch names its code "Routing number"; every Nigeria id of an answer opens its branch', async () => {
      const [bd] = await allBranches({ receivingCountry: 'BD', receivingAgentHeadOfficeCode: 'BRACBD', pageSize: '1' });
      const detail = branchDetailResponse.parse((await t.get(`/v1/banks/branches/${bd.branchId}`)).json());
      expect(detail.data.branchCodeName).toBe('Routing number');
      const ng = await allBranches({
        receivingCountry: 'NG',
        receivingAgentHeadOfficeCode: 'ACCSNG',
        pageSize: '1000',
      });
      for (const row of ng.slice(0, 40)) {
        const res = await t.get(`/v1/banks/branches/${row.branchId}`);
        expect(res.statusCode, res.body).toBe(200);
        const { receivingAgentHeadOfficeCode: _office, ...fields } = row;
        expect(branchDetailResponse.parse(res.json()).data).toMatchObject(fields);
      }
    });

    it('an unknown id is a 404, a malformed one a 400 naming the path parameter', async () => {
      const missing = await t.get('/v1/banks/branches/IN-XXXX0000000');
      expect(missing.statusCode).toBe(404);
      expect(problem.parse(missing.json()).type).toBe('urn:problem:not-found');
      const bad = await t.get(`/v1/banks/branches/${encodeURIComponent('IN_ABC;1')}`);
      expect(bad.statusCode).toBe(400);
      expect(problem.parse(bad.json()).errors).toEqual([expect.objectContaining({ name: 'branchId', in: 'path' })]);
    });
  });

  describe('GET /v1/codes/{code}', () => {
    it('finds an IFSC typed in lower case with spaces, with the head offices that pay into its bank', async () => {
      const row = IN.find((r) => r.bank_code === 'ABHY')!;
      const typed = `${row.routing_number.slice(0, 4).toLowerCase()} ${row.routing_number.slice(4, 8).toLowerCase()} ${row.routing_number.slice(8)}`;
      const answer = await lookup(typed);
      expect(answer.code).toBe(row.routing_number);
      expect(answer.formats).toContainEqual(expect.objectContaining({ kind: 'branch', receivingCountry: 'IN' }));
      expect(answer.data).toHaveLength(1);
      const [match] = answer.data;
      expect(match).toMatchObject({
        kind: 'branch',
        receivingCountry: 'IN',
        receivingCountryName: 'India',
        bankCode: row.bank_code,
        bankName: row.bank_name,
      });
      expect(match.branch).toMatchObject({ routingNumber: row.routing_number, branchName: row.branch_name });
      expect(byCode(match.headOffices)).toEqual(payingInto('IN', row.bank_code));
      expect(match.headOffices.length).toBeGreaterThan(0);
      expect(answer.issuedIfsc).toBeNull();
    });

    it('finds a Bangladesh routing number; its head offices are those whose routes include the bank', async () => {
      // A bank Sonali's list names, so both BRAC ("*") and Sonali pay into it.
      const sonali = partners.find((p) => p.head_office_code === 'SONLBD')!.routes_to_banks.split(' ');
      const row = BD.find((r) => sonali.includes(r.bank_code))!;
      const answer = await lookup(row.routing_number);
      expect(answer.data).toHaveLength(1);
      expect(answer.data[0]).toMatchObject({ kind: 'branch', receivingCountry: 'BD', bankCode: row.bank_code });
      expect(answer.data[0].branch?.routingNumber).toBe(row.routing_number);
      expect(byCode(answer.data[0].headOffices)).toEqual(payingInto('BD', row.bank_code));
      expect(answer.data[0].headOffices.map((h) => h.receivingAgentHeadOfficeCode)).toEqual(
        expect.arrayContaining(['BRACBD', 'SONLBD']),
      );
    });

    it('finds a Nigerian bank code with its branch count', async () => {
      const bdCodes = new Set(BD.map((r) => r.bank_code));
      const code = NG.find((r) => !bdCodes.has(r.bank_code))!.bank_code;
      const answer = await lookup(code);
      expect(answer.data).toHaveLength(1);
      expect(answer.data[0]).toMatchObject({
        kind: 'bank',
        receivingCountry: 'NG',
        bankCode: code,
        bankName: NG.find((r) => r.bank_code === code)!.bank_name,
        branchCount: NG.filter((r) => r.bank_code === code).length,
      });
      expect(byCode(answer.data[0].headOffices)).toEqual(payingInto('NG', code));
    });

    it('finds an agent code', async () => {
      const agents = await t.get('/v1/agents', {
        receivingCountry: 'MX',
        deliveryMode: '01',
        pageNumber: '3',
        pageSize: '1',
      });
      const agent = agents.json().data[0];
      const answer = await lookup(agent.agentCode.toLowerCase());
      expect(answer.data).toEqual([expect.objectContaining({ kind: 'agent', receivingCountry: 'MX', agent })]);
    });

    it('lists every match of a code of two kinds (a bank code of Bangladesh and of Nigeria)', async () => {
      const ngCodes = new Set(NG.map((r) => r.bank_code));
      const code = BD.find((r) => ngCodes.has(r.bank_code))!.bank_code;
      const answer = await lookup(code);
      expect(answer.data.map((m) => [m.kind, m.receivingCountry, m.bankName])).toEqual([
        ['bank', 'BD', BD.find((r) => r.bank_code === code)!.bank_name],
        ['bank', 'NG', NG.find((r) => r.bank_code === code)!.bank_name],
      ]);
    });

    it('answers an unknown code with 200, no match and the formats it was tried as', async () => {
      const answer = await lookup('QQ 12');
      expect(answer).toEqual({
        code: 'QQ12',
        formats: [{ kind: 'agent', receivingCountry: null, description: 'an agent code' }],
        data: [],
        issuedIfsc: null,
        near: null,
      });
      const ifscShaped = await lookup('ZZZZ0999999');
      expect(ifscShaped.data).toEqual([]);
      expect(ifscShaped.issuedIfsc).toBeNull();
      expect(ifscShaped.formats.map((f) => [f.kind, f.receivingCountry])).toEqual([
        ['branch', 'IN'],
        ['agent', null],
      ]);
      const nineDigits = await lookup('999999999');
      expect(nineDigits.data).toEqual([]);
      expect(nineDigits.formats.map((f) => [f.kind, f.receivingCountry])).toEqual([
        ['branch', 'BD'],
        ['agent', null],
      ]);
    });

    it('says of a real IFSC the India extract does not hold which bank issued it, and who pays into that bank', async () => {
      const require = createRequire(import.meta.url);
      const issued = require('ifsc/src/IFSC.json') as Record<string, (number | string)[]>;
      const names = require('ifsc/src/banknames.json') as Record<string, string>;
      const held = new Set(IN.map((r) => r.bank_code));
      const bank = Object.keys(issued).find(
        (code) => !held.has(code) && typeof issued[code][0] === 'number' && names[code],
      )!;
      const ifsc = `${bank}0${String(issued[bank][0]).padStart(6, '0')}`;
      const answer = await lookup(ifsc.toLowerCase());
      expect(answer.data).toEqual([]);
      // Only the head offices paying into every bank of India ("*") pay into a bank the extract does not hold.
      expect(answer.issuedIfsc).toEqual({
        ifsc,
        bankCode: bank,
        bankName: names[bank],
        headOffices: payingInto('IN', bank),
      });
      expect(answer.issuedIfsc!.headOffices.length).toBeGreaterThan(0);
      // Well-formed but never issued: no bank.
      expect((await lookup(`${bank}0ZZZZZZ`)).issuedIfsc).toBeNull();
    });

    it('refuses a code longer than the limit, or with other characters, with 400 naming the path parameter', async () => {
      for (const code of ['A'.repeat(MAX_CODE_LENGTH + 1), '1'.repeat(300), 'ABHY-0065002', ' ']) {
        const res = await t.get(`/v1/codes/${encodeURIComponent(code)}`);
        expect(res.statusCode, code).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        const body = problem.parse(res.json());
        expect(body.errors).toEqual([expect.objectContaining({ name: 'code', in: 'path' })]);
      }
      // Header and path problems together in one answer; a query parameter is refused like everywhere.
      const both = await t.get(`/v1/codes/${'A'.repeat(MAX_CODE_LENGTH + 1)}`, {}, {});
      expect(
        problem
          .parse(both.json())
          .errors.map((e) => [e.name, e.in])
          .sort(),
      ).toEqual([
        ['code', 'path'],
        ['x-fapi-financial-id', 'header'],
      ]);
      const extra = await t.get('/v1/codes/SBIN', { country: 'IN' });
      expect(extra.statusCode).toBe(400);
      expect(problem.parse(extra.json()).errors).toEqual([expect.objectContaining({ name: 'country', in: 'query' })]);
    });
  });

  describe('GET /v1/banks/browse', () => {
    it("counts each bank as the branch finder's totalItems for that bank code (and the same text filter)", async () => {
      for (const query of <Record<string, string>[]>[
        { receivingCountry: 'BD', receivingAgentHeadOfficeCode: 'SONLBD' },
        { receivingCountry: 'BD', receivingAgentHeadOfficeCode: 'BRACBD', district: 'chittagong' },
        { receivingCountry: 'IN', receivingAgentHeadOfficeCode: 'FDRLIN', branchLocation: 'road' },
      ]) {
        const answer = await browse(query);
        expect(answer.facets.banks.length).toBeGreaterThan(1);
        // Without a state or city it is the branch finder's answer.
        expect(answer.pagination.totalItems).toBe(await branchesTotal(query));
        expect(answer.facets.banks.reduce((sum, b) => sum + b.count, 0)).toBe(answer.pagination.totalItems);
        for (const bank of answer.facets.banks)
          expect(bank.count, bank.bankCode).toBe(await branchesTotal({ ...query, bankCode: bank.bankCode }));
      }
    });

    it("without a state or city, any page is the branch finder's page (bank codes, routing numbers, text filters)", async () => {
      for (const query of <Record<string, string>[]>[
        { receivingCountry: 'IN', receivingAgentHeadOfficeCode: 'ICICIN' },
        { receivingCountry: 'IN', receivingAgentHeadOfficeCode: 'ICICIN', bankCode: 'ANDB' },
        { receivingCountry: 'IN', receivingAgentHeadOfficeCode: 'ICICIN', bankCode: 'ICIC0006855' },
        { receivingCountry: 'IN', receivingAgentHeadOfficeCode: 'FDRLIN', branchLocation: 'road' },
        { receivingCountry: 'BD', receivingAgentHeadOfficeCode: 'SONLBD', bankCode: '200' },
      ]) {
        for (const [pageNumber, pageSize] of [
          ['1', '7'],
          ['3', '7'],
          ['2', '50'],
          ['1', '1000'],
          ['9999', '10'],
        ]) {
          const res = await t.get('/v1/banks/branches', { deliveryMode: '04', ...query, pageNumber, pageSize });
          const branches = branchesResponse.parse(res.json());
          if (pageNumber === '1') expect(branches.pagination.totalItems, JSON.stringify(query)).toBeGreaterThan(0);
          const answer = await browse({ ...query, pageNumber, pageSize });
          expect(
            { data: answer.data, pagination: answer.pagination },
            JSON.stringify({ ...query, pageNumber, pageSize }),
          ).toEqual(branches);
        }
      }
    });

    it('narrows bank → state → city; each count is the totalItems of the narrower page', async () => {
      // The bank of each country with the most branches in the CSV, under a head office that pays into it.
      const largest = (rows: BranchCsv[]) => {
        const counts = new Map<string, number>();
        for (const r of rows) counts.set(r.bank_code, (counts.get(r.bank_code) ?? 0) + 1);
        return [...counts].sort((x, y) => y[1] - x[1])[0][0];
      };
      for (const [country, office, bankCode] of [
        ['BD', 'BRACBD', largest(BD)],
        ['IN', 'ICICIN', largest(IN)],
      ] as const) {
        const csvRows = (country === 'BD' ? BD : IN).filter((r) => r.bank_code === bankCode);
        const bank = await browse({ receivingCountry: country, receivingAgentHeadOfficeCode: office, bankCode });
        expect(bank.pagination.totalItems).toBe(csvRows.length);
        expect(bank.facets.states.reduce((sum, s) => sum + s.count, 0)).toBe(csvRows.length);
        expect(bank.facets.cities).toEqual([]);
        const state = bank.facets.states.reduce((most, s) => (s.count > most.count ? s : most));
        const inState = await browse({
          receivingCountry: country,
          receivingAgentHeadOfficeCode: office,
          bankCode,
          state: state.code,
        });
        expect(inState.pagination.totalItems).toBe(state.count);
        expect(inState.data.every((b) => b.state === state.code && b.bankCode === bankCode)).toBe(true);
        expect(inState.facets.cities.reduce((sum, c) => sum + c.count, 0)).toBe(state.count);
        // Bangladesh rows have no city: the second level is the district (as the CSV's).
        if (country === 'BD') {
          const districts = new Set(csvRows.map((r) => r.district));
          expect(inState.facets.cities.every((c) => districts.has(c.name))).toBe(true);
        }
        for (const city of inState.facets.cities.slice(0, 5)) {
          const inCity = await browse({
            receivingCountry: country,
            receivingAgentHeadOfficeCode: office,
            bankCode,
            state: state.code,
            city: city.name.toLowerCase(),
          });
          expect(inCity.pagination.totalItems, city.name).toBe(city.count);
          expect(inCity.data.every((b) => (b.city ?? b.district) === city.name)).toBe(true);
        }
      }
    });

    it('answers a head office that is not one of the country with an empty page, and validates like the branch finder', async () => {
      const empty = await browse({ receivingCountry: 'BD', receivingAgentHeadOfficeCode: 'ICICIN' });
      expect(empty).toEqual({
        data: [],
        pagination: { pageNumber: 1, pageSize: 1000, totalItems: 0, totalPages: 0 },
        facets: { banks: [], states: [], cities: [] },
      });
      const res = await t.get('/v1/banks/browse', {
        receivingCountry: 'IN',
        deliveryMode: '01',
        receivingAgentHeadOfficeCode: 'ICICIN',
        state: 'XX',
        city: 'x'.repeat(101),
        district: 'y',
        pagesize: '2',
      });
      expect(res.statusCode).toBe(400);
      expect(
        problem
          .parse(res.json())
          .errors.map((e) => e.name)
          .sort(),
      ).toEqual(['city', 'deliveryMode', 'district', 'pagesize', 'state']);
    });
  });
});
