import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRows } from '../../../testing/csv-rows';
import { isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/max';
import {
  QUALITY_CHECKS,
  QUALITY_CSV_COLUMNS,
  qualityReport as qualityReportSchema,
  type QualityCheckId,
} from '../../../contract/ops-quality';
import { COUNTRY_PROFILES } from '../../../contract/countries';
import type { DataSet } from '../../domain/data-set';
import { buildSeedDataSet } from '../../seed/seed';
import { createTestApp, LOOKUP_HEADERS, openTestStore, testEngines } from '../../../testing/test-app';
import { createOpsAccount, signIn } from '../../../testing/ops';
import { problem } from '../../../contract';
import { qualityCsv, qualityFindings, qualityReport, storeQualityReport } from '../quality';

// The data-quality report's counts against a brute-force computation written another way (whole-array filters,
// counts as "rows minus distinct keys"), on the real seed data and on a data set with planted faults, as both
// stores serve them.

/** Each check's count, computed as plainly as possible. */
function bruteForceCounts(d: DataSet): Record<QualityCheckId, number> {
  const distinct = <T>(rows: T[], key: (row: T) => string) => rows.length - new Set(rows.map(key)).size;
  const stateListed = (country: string, code: string) => d.states.some((s) => s.country === country && s.code === code);
  const modeFour = d.headOffices.filter((h) => h.deliveryModes.includes(4));
  const banks = [...new Set(d.branches.map((b) => `${b.country} ${b.bankCode}`))];
  const withRouting = d.branches.filter((b) => b.routingNumber);
  return {
    'duplicate-routing-number': distinct(withRouting, (b) => `${b.country} ${b.routingNumber}`),
    'duplicate-agent-code': distinct(d.agents, (a) => a.agentCode),
    'duplicate-head-office-code': distinct(d.headOffices, (h) => h.code),
    'branch-without-district': d.branches.filter(
      (b) => COUNTRY_PROFILES[b.country]?.districtFilter === true && (b.district ?? '') === '',
    ).length,
    'state-not-listed':
      d.branches.filter((b) => b.state !== null && b.state !== '' && !stateListed(b.country, b.state)).length +
      d.agents.filter((a) => a.state !== '' && !stateListed(a.country, a.state)).length,
    'bank-without-head-office': banks.filter(
      (bank) => !modeFour.some((h) => h.bankCodes.some((code) => `${h.country} ${code}` === bank)),
    ).length,
    'head-office-without-bank': modeFour.filter(
      (h) => !h.bankCodes.some((code) => banks.includes(`${h.country} ${code}`)),
    ).length,
    'agent-phone-invalid': d.agents.filter(
      (a) => a.phoneNumber && !isValidPhoneNumber(a.phoneNumber, a.country as CountryCode),
    ).length,
  };
}

const countsOf = (d: DataSet, version: string | null = null) =>
  Object.fromEntries(qualityReport(d, { dataVersion: version }).checks.map((c) => [c.check, c.count]));

/** The seed with faults planted that a store can hold (its unique keys aside). */
function planted(seed: DataSet): { dataSet: DataSet; planted: Partial<Record<QualityCheckId, number>> } {
  const bd = seed.branches.filter((b) => b.country === 'BD');
  const ng = seed.branches.find((b) => b.country === 'NG')!;
  const agents = seed.agents.map((a, i) =>
    i === 3
      ? { ...a, phoneNumber: '12' }
      : i === 5
        ? { ...a, state: 'ZZ' }
        : i === 8
          ? { ...a, phoneNumber: '+1 202 555 01' }
          : a,
  );
  const branches = [
    ...seed.branches.map((b) => (b === bd[10] ? { ...b, district: null } : b === bd[11] ? { ...b, state: 'QQ' } : b)),
    { ...bd[0], branchName: 'PLANTED DUPLICATE 1' },
    { ...bd[1], branchName: 'PLANTED DUPLICATE 2' },
    { ...bd[1], branchName: 'PLANTED DUPLICATE 3' },
    { ...ng, bankCode: '999', bankName: 'PLANTED UNPAID BANK', branchName: 'NOWHERE' },
  ];
  const office = seed.headOffices.find((h) => h.deliveryModes.includes(4))!;
  const headOffices = [
    ...seed.headOffices,
    { ...office, code: 'PLNT04', name: 'PLANTED HEAD OFFICE', bankCodes: ['ZZZZ'] },
  ];
  return {
    dataSet: { ...seed, branches, agents, headOffices },
    planted: {
      'duplicate-routing-number': 3,
      'branch-without-district': 1,
      'state-not-listed': 2,
      'bank-without-head-office': 1,
      'head-office-without-bank': 1,
      'agent-phone-invalid': 2,
    },
  };
}

const seed = buildSeedDataSet();
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the quality report over a data set', () => {
  it('counts what brute force counts on the seed, examples the first findings, CSV every finding', () => {
    const report = qualityReport(seed, { examples: 3 });
    expect(report.checks.map((c) => c.check)).toEqual([...QUALITY_CHECKS]);
    expect(countsOf(seed)).toEqual(bruteForceCounts(seed));
    const findings = qualityFindings(seed);
    for (const check of report.checks) {
      expect(check.examples).toEqual(findings.filter((f) => f.check === check.check).slice(0, 3));
    }
    const csv = csvRows(qualityCsv(findings));
    expect(csv).toHaveLength(findings.length);
    if (findings.length) expect(Object.keys(csv[0])).toEqual([...QUALITY_CSV_COLUMNS]);
  });

  it('finds every planted fault, duplicates of codes the stores keep unique included', () => {
    const { dataSet, planted: expected } = planted(seed);
    const office = dataSet.headOffices[0];
    const withDuplicates: DataSet = {
      ...dataSet,
      agents: [...dataSet.agents, { ...dataSet.agents[0] }, { ...dataSet.agents[1] }],
      headOffices: [...dataSet.headOffices, { ...office, name: 'PLANTED SAME CODE' }],
    };
    const brute = bruteForceCounts(withDuplicates);
    const seedBrute = bruteForceCounts(seed);
    expect(countsOf(withDuplicates)).toEqual(brute);
    for (const check of QUALITY_CHECKS) {
      const more = { ...expected, 'duplicate-agent-code': 2, 'duplicate-head-office-code': 1 }[check] ?? 0;
      expect(brute[check] - seedBrute[check], check).toBe(more);
    }
    const report = qualityReport(withDuplicates);
    const unpaid = report.checks.find((c) => c.check === 'bank-without-head-office')!;
    expect(unpaid.examples).toContainEqual(
      expect.objectContaining({ country: 'NG', code: '999', name: 'PLANTED UNPAID BANK' }),
    );
    const csv = qualityCsv(qualityFindings(withDuplicates), 'head-office-without-bank');
    expect(csv).toContain('PLNT04');
  });
});

describe.each(testEngines())('the quality report of what the %s store serves', (engine) => {
  it('counts what brute force counts, on the seed and with planted faults', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quality-'));
    dirs.push(dir);
    const store = await openTestStore(engine, dir);
    try {
      const served = await store.readDataSet();
      const report = await storeQualityReport(store);
      expect(report.dataVersion).toBe(served.version);
      expect(Object.fromEntries(report.checks.map((c) => [c.check, c.count]))).toEqual(
        bruteForceCounts(served.dataSet),
      );
      expect(bruteForceCounts(served.dataSet)).toEqual(bruteForceCounts(seed));

      const { dataSet, planted: expected } = planted(served.dataSet);
      await store.replaceDataSet(dataSet, { expectedVersion: served.version });
      const after = await store.readDataSet();
      const faulty = await storeQualityReport(store);
      const brute = bruteForceCounts(after.dataSet);
      expect(Object.fromEntries(faulty.checks.map((c) => [c.check, c.count]))).toEqual(brute);
      const seedBrute = bruteForceCounts(seed);
      for (const check of QUALITY_CHECKS) expect(brute[check] - seedBrute[check], check).toBe(expected[check] ?? 0);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe.each(testEngines())('the quality report over HTTP (%s)', (engine) => {
  it('401 without a session, 403 for a teller id; counts as brute force; each check as CSV; a new version seen', async () => {
    const t = await createTestApp({ engine });
    try {
      await createOpsAccount(t.app, 'carol', ['checker']);
      const carol = await signIn(t.app, 'carol');
      expect((await t.app.inject({ method: 'GET', url: '/v1/ops/quality' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/v1/ops/quality', headers: LOOKUP_HEADERS })).statusCode).toBe(
        403,
      );
      const get = async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: '/v1/ops/quality',
          headers: { cookie: carol.cookie },
        });
        expect(response.statusCode).toBe(200);
        return qualityReportSchema.parse(response.json());
      };
      const served = await t.app.store.readDataSet();
      const report = await get();
      expect(report.dataVersion).toBe(served.version);
      expect(Object.fromEntries(report.checks.map((c) => [c.check, c.count]))).toEqual(
        bruteForceCounts(served.dataSet),
      );
      for (const check of report.checks) {
        const csv = await t.app.inject({
          method: 'GET',
          url: `/v1/ops/quality/${check.check}.csv`,
          headers: { cookie: carol.cookie },
        });
        expect(csv.statusCode, check.check).toBe(200);
        expect(csv.headers['content-type']).toMatch(/^text\/csv/);
        const rows = csvRows(csv.body);
        expect(rows, check.check).toHaveLength(check.count);
        expect(rows.every((row) => row.check === check.check)).toBe(true);
      }
      const unknown = await t.app.inject({
        method: 'GET',
        url: '/v1/ops/quality/no-such-check.csv',
        headers: { cookie: carol.cookie },
      });
      expect(unknown.statusCode).toBe(400);
      expect(problem.parse(unknown.json()).status).toBe(400);

      // A publish is a new data version: the report follows it (no stale cached findings).
      const { dataSet } = planted(served.dataSet);
      await t.app.store.replaceDataSet(dataSet, { expectedVersion: served.version });
      const after = await t.app.store.readDataSet();
      const again = await get();
      expect(again.dataVersion).toBe(after.version);
      expect(Object.fromEntries(again.checks.map((c) => [c.check, c.count]))).toEqual(bruteForceCounts(after.dataSet));
    } finally {
      await t.close();
    }
  }, 120_000);
});
