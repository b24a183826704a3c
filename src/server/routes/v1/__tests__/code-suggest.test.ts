import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeLookupResponse, problem, type CodeLookupResponse } from '../../../../contract';
import { SEED_DIR } from '../../../seed/seed';
import { csvRows } from '../../../../testing/csv-rows';
import { createTestApp, testEngines, type TestApp } from '../../../../testing/test-app';

// A code with no match that is one character off held codes (GET /v1/codes/{code}, `near`): through the real
// app on the shipped data of every store engine; expected codes are worked out from the CSV files.

const branchCsv = (country: string) => csvRows(readFileSync(join(SEED_DIR, 'bank-branches', `${country}.csv`)));
const IN = branchCsv('IN');
const BD = branchCsv('BD');
const agents = csvRows(readFileSync(join(SEED_DIR, 'agents.csv')));

/** Codes of the same length differing in exactly one place. */
const oneSubstitutionOff = (a: string, b: string) =>
  a.length === b.length && [...a].filter((c, i) => c !== b[i]).length === 1;

describe.each(testEngines())('codes one character off on the %s store', (engine) => {
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
    return codeLookupResponse.parse(res.json());
  };

  it('names the held bank of an IFSC with no match and offers the held IFSCs one character off', async () => {
    const answer = await lookup('barb0colinf');
    expect(answer.data).toEqual([]);
    const baroda = IN.find((r) => r.routing_number === 'BARB0COLIND')!;
    expect(answer.near?.bank).toEqual({
      receivingCountry: 'IN',
      receivingCountryName: 'India',
      bankCode: 'BARB',
      bankName: baroda.bank_name,
      held: true,
    });
    const expected = IN.filter((r) => oneSubstitutionOff(r.routing_number, 'BARB0COLINF'));
    expect(expected.length).toBeGreaterThan(0);
    const suggestions = answer.near!.suggestions;
    expect(suggestions.length).toBeLessThanOrEqual(5);
    expect(suggestions.map((s) => s.code)).toEqual(
      expect.arrayContaining(expected.slice(0, 5).map((r) => r.routing_number)),
    );
    expect(suggestions.find((s) => s.code === 'BARB0COLIND')).toEqual({
      code: 'BARB0COLIND',
      kind: 'branch',
      receivingCountry: 'IN',
      receivingCountryName: 'India',
      bankCode: 'BARB',
      bankName: baroda.bank_name,
      name: baroda.branch_name,
      city: baroda.city,
    });
    // Each suggestion is a code the lookup finds.
    for (const s of suggestions) expect((await lookup(s.code)).data.map((m) => m.kind)).toContain(s.kind);
  });

  it('finds a code with a character missing, one too many, or two swapped', async () => {
    const routing = BD[10].routing_number;
    const cases = [
      routing.slice(0, 4) + routing.slice(5),
      routing.slice(0, 4) + '7' + routing.slice(4),
      routing.slice(0, 2) + routing[3] + routing[2] + routing.slice(4),
    ].filter((c) => !BD.some((r) => r.routing_number === c));
    expect(cases.length).toBeGreaterThan(0);
    for (const code of cases) {
      const answer = await lookup(code);
      expect(
        answer.near?.suggestions.map((s) => s.code),
        code,
      ).toContain(routing);
    }
    const agentCode = agents[0].agent_code;
    const typo = `Q${agentCode.slice(1)}`;
    expect(agents.some((a) => a.agent_code === typo)).toBe(false);
    expect((await lookup(typo)).near?.suggestions).toContainEqual(
      expect.objectContaining({ code: agentCode, kind: 'agent', name: agents[0].agent_name }),
    );
  });

  it('names a bank the data set does not hold from the RBI list, with no suggestion from it', async () => {
    const held = new Set(IN.map((r) => r.bank_code));
    expect(held.has('HDFC')).toBe(false);
    const answer = await lookup('HDFC0ZZZZZZ');
    expect(answer.issuedIfsc).toBeNull();
    expect(answer.near?.bank).toEqual(
      expect.objectContaining({ bankCode: 'HDFC', bankName: 'HDFC Bank', held: false }),
    );
  });

  it('says nothing near for a code far from every held code, and nothing for a match or an issued IFSC', async () => {
    expect((await lookup('QQ12')).near).toBeNull();
    expect((await lookup('BARB0COLIND')).near).toBeNull();
    expect((await lookup('HDFC0000001')).near).toBeNull();
  });

  it('refuses a malformed code with a 400 problem naming the path parameter', async () => {
    for (const code of ['BARB-COLINF', 'A'.repeat(41), ' ']) {
      const res = await t.get(`/v1/codes/${encodeURIComponent(code)}`);
      expect(res.statusCode, code).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem.parse(res.json()).errors).toEqual([expect.objectContaining({ name: 'code', in: 'path' })]);
    }
  });
});
