import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsPage, type RecordMatch } from '../../../../../contract/ops-records';
import { createTestApp, testEngines, type TestApp } from '../../../../../testing/test-app';
import { createOpsAccount, signIn, type OpsSessionCookie } from '../../../../../testing/ops';
import { csvRows } from '../../../../../testing/csv-rows';
import { REPO_ROOT } from '../../../../paths';
import { recordKeyOf } from '../../../../../contract/record-key';

// The desk's record search by a code (a routing number or IFSC) on both stores, held to the shipped files: a code
// that is in no name, bank, city, district or street is answered from the routing numbers' hash table without
// the pass over every row, and must find exactly the rows the files hold with that code, in any case, with and
// without a country, paged; a term that is both a code and a text (a bank code) still finds every row holding it.

const SEARCHED = ['bank_name', 'branch_name', 'city', 'address_line1', 'district'] as const;
const branches = ['BD', 'IN', 'NG'].flatMap((country) =>
  csvRows(readFileSync(join(REPO_ROOT, 'data', 'seed', 'bank-branches', `${country}.csv`))),
);

/** The keys the files say a search for `term` finds: its routing number, a bank code, or a text holding it. */
function expectedKeys(term: string, country?: string): string[] {
  const code = term.toUpperCase();
  const lower = term.toLowerCase();
  return branches
    .filter((r) => !country || r.country === country)
    .filter(
      (r) =>
        r.routing_number === code ||
        r.bank_code === code ||
        (r.bank_name ?? '').toLowerCase().includes(lower) ||
        SEARCHED.some((column) => (r[column] ?? '').toLowerCase().includes(lower)),
    )
    .map((r) =>
      recordKeyOf(
        r.routing_number
          ? [r.country, r.routing_number]
          : [r.country, r.bank_code, r.branch_name, r.address_line1 ?? ''],
      ),
    )
    .sort();
}

/** Every 151st routed branch of the files: IFSCs and Bangladeshi routing numbers. */
const sample = branches.filter((r) => r.routing_number).filter((_, i) => i % 151 === 0);

describe.each(testEngines())('the record search by code (%s)', (engine) => {
  let t: TestApp;
  let ops: OpsSessionCookie;
  beforeAll(async () => {
    t = await createTestApp({ engine });
    await createOpsAccount(t.app, 'dora', ['maker']);
    ops = await signIn(t.app, 'dora');
  });
  afterAll(async () => {
    await t.close();
  });

  async function searchAll(query: Record<string, string>): Promise<RecordMatch[]> {
    const all: RecordMatch[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/v1/ops/records?${new URLSearchParams({ ...query, pageSize: '2', pageNumber: String(pageNumber) }).toString()}`,
        headers: { cookie: ops.cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      const page = recordsPage.parse(response.json());
      all.push(...page.data);
      expect(page.pagination.totalItems).toBeGreaterThanOrEqual(all.length);
      if (pageNumber >= page.pagination.totalPages) return all;
    }
  }
  const keys = (found: RecordMatch[]) => found.map((m) => m.key).sort();

  it('finds each sampled code exactly, as typed and in lower case, with its country, none with another', async () => {
    expect(sample.length).toBeGreaterThan(100);
    for (const row of sample) {
      const code = row.routing_number!;
      const expected = expectedKeys(code);
      expect(expected).toContain(`${row.country}~${code}`);
      expect(keys(await searchAll({ kind: 'branches', q: code })), code).toEqual(expected);
      expect(keys(await searchAll({ kind: 'branches', q: code.toLowerCase() })), code).toEqual(expected);
      expect(keys(await searchAll({ kind: 'branches', q: ` ${code} `, country: row.country })), code).toEqual(
        expectedKeys(code, row.country),
      );
      const other = row.country === 'IN' ? 'BD' : 'IN';
      expect(await searchAll({ kind: 'branches', q: code, country: other })).toEqual([]);
    }
  }, 240_000);

  it('a bank code is a code and a text: every branch of the bank, and every text holding it', async () => {
    for (const term of ['ABHY', 'abhy']) {
      const expected = expectedKeys(term);
      expect(expected.length).toBeGreaterThan(1);
      expect(keys(await searchAll({ kind: 'branches', q: term })), term).toEqual(expected);
    }
  });

  it('a code no branch has finds nothing', async () => {
    expect(await searchAll({ kind: 'branches', q: 'ZZZZ0999999' })).toEqual([]);
  });
});
