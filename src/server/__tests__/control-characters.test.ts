import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '../../contract';
import { importFile } from '../desk/shell-import';
import { createTestApp, type TestApp } from '../../testing/test-app';

// One rule for control characters (issue 12, item 6): C0 (TAB and LF included), DEL and C1 (U+0080–U+009F) are
// refused in import files, row by row, and in every free-text search, with a 400 naming the parameter.

const dir = mkdtempSync(join(tmpdir(), 'rpl-control-'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const CONTROLS = {
  TAB: '\t',
  LF: '\n',
  CR: '\r',
  DEL: '\u007f',
  'NEL (C1)': '\u0085',
  'CSI (C1)': '\u009b',
  'U+0080': '\u0080',
  'U+009F': '\u009f',
};

describe('searches', () => {
  it.each(Object.entries(CONTROLS))('refuses %s inside a search with a 400 naming it', async (_name, control) => {
    const res = await t.get('/v1/agents', { receivingCountry: 'MX', deliveryMode: '01', search: `ELEK${control}TRA` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(problem.parse(res.json()).errors).toEqual([
      { name: 'search', in: 'query', message: 'must not contain control characters' },
    ]);
  });

  it('still takes letters just past the C1 block', async () => {
    expect(
      (await t.get('/v1/agents', { receivingCountry: 'MX', deliveryMode: '01', search: 'Elé\u00a0' })).statusCode,
    ).toBe(200);
  });
});

describe('import files', () => {
  const HEADER =
    'country,bank_code,bank_name,routing_number,branch_name,address_line1,address_line2,city,district,state';
  it.each(Object.entries(CONTROLS))('refuses a branch row with %s inside a value', async (_name, control) => {
    const file = join(dir, 'branches.csv');
    // Quoted, so CR and LF stay inside the value rather than ending the row.
    writeFileSync(
      file,
      `${HEADER}\nBD,020,AB BANK LIMITED,020150130,"AGRA${control}BAD",AGRABAD BRANCH,Chattogram,,Chattogram,Chattogram\n`,
    );
    const before = await t.store.dataVersion();
    const report = await importFile(t.store, 'branches', file);
    expect(report.applied).toBe(false);
    // The problem names the rule and the value that failed (every fault with its value).
    expect(report.problems).toContainEqual({
      line: 2,
      column: 'branch_name',
      reason: 'must not contain control characters',
      rule: 'branch_name: must not contain control characters',
      value: `AGRA${control}BAD`,
    });
    expect(await t.store.dataVersion()).toBe(before);
  });
});
