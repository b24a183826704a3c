import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SEED_DIR } from '../../seed/seed';
import {
  reportedProblems,
  runCli,
  seededDataDir,
  servedChecksum,
  type DataDir,
  type ReportedProblem,
} from '../../../testing/import-cli';

// Files that carry each kind of bad row, imported with the real command: every bad row is reported with its
// physical line (header = line 1), column and reason; the exit code is 1; nothing is applied.

let data: DataDir;
beforeAll(() => {
  data = seededDataDir();
});
afterAll(() => data.remove());

const write = (name: string, lines: string[]) => {
  const path = join(data.dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
};

/** Imports and checks: exactly the expected problems (reason matched by a fragment), and the store untouched. */
async function expectRejected(kind: string, path: string, expected: ReportedProblem[]) {
  const before = servedChecksum(data.file);
  const run = await runCli('import', [kind, path], data.dir);
  const file = path.split('/').pop()!;
  const problems = reportedProblems(run.stdout, file);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  for (const want of expected) {
    expect(problems, `line ${want.line} ${want.column}: ${want.reason}`).toContainEqual({
      line: want.line,
      column: want.column,
      reason: expect.stringContaining(want.reason),
    });
  }
  expect(problems).toHaveLength(expected.length);
  expect(run.stdout).toMatch(/NOT applied/);
  expect(servedChecksum(data.file)).toEqual(before);
  return run;
}

const BRANCH_HEADER =
  'country,bank_code,bank_name,routing_number,branch_name,address_line1,address_line2,city,district,state';
const GOOD_BD =
  'BD,020,AB BANK LIMITED,020150130,AGRABAD,AGRABAD BRANCH,"Chattogram, Chattogram Division, Bangladesh",,Chattogram,Chattogram';

describe('branches', () => {
  it('reports every bad row with its line, column and reason, and applies nothing', async () => {
    const path = write('branches-bad.csv', [
      BRANCH_HEADER, //                                                                                          1
      GOOD_BD, //                                                                                                2
      'XX,020,AB BANK LIMITED,020150131,A,,,,,', //                                                              3
      'FR,020,AB BANK LIMITED,020150132,A,,,,,', //                                                              4
      'BD,020,,020150133,A,,,,,', //                                                                             5
      'IN,SBIN,STATE BANK OF INDIA,SBIN1234567,A,,,,,', //                                                       6
      'IN,SBIN,STATE BANK OF INDIA,HDFC0001234,A,,,,,', //                                                       7
      'BD,020,AB BANK LIMITED,02015013,A,,,,,', //                                                               8
      'BD,020,AB BANK LIMITED,020020130,A,,,,,', //                                                              9
      'BD,020,AB BANK LIMITED,010150130,A,,,,,', //                                                             10
      'BD,AB,AB BANK LIMITED,,A,,,,,', //                                                                       11
      GOOD_BD, //                                                                                               12
      'KE,EQBL,EQUITY BANK,,A,,,,,', //                                                                         13
      'BD,020,AB BANK LIMITED,020150134,A,,,,,Maharashtra', //                                                  14
      'BD,020,AB BANK LIMITED,020150135,,"MULTI', //                                                            15
      'LINE ADDRESS",,,,', //                                                                                   16
      'BD,020,AB BANK LIMITED,020150136,', //                                                                   17
      '', //                                                                                                    18
      'BD,020,AB BANK LIMITED,020260137,A,,,,Sylhet,', //                                                       19
    ]);
    await expectRejected('branches', path, [
      { line: 3, column: 'country', reason: 'is not an ISO 3166-1 alpha-2 country code' },
      { line: 4, column: 'country', reason: 'FR is not a served receiving country' },
      { line: 5, column: 'bank_name', reason: 'is required' },
      { line: 6, column: 'routing_number', reason: 'must be an IFSC' },
      { line: 7, column: 'routing_number', reason: 'does not start with the bank code SBIN' },
      { line: 8, column: 'routing_number', reason: 'must be a nine-digit Bangladesh Bank routing number' },
      { line: 9, column: 'routing_number', reason: 'digits 4–5 (02) are not a known Bangladesh district code' },
      { line: 10, column: 'routing_number', reason: 'does not start with the bank code 020' },
      { line: 11, column: 'bank_code', reason: 'must be the three-digit Bangladesh Bank code' },
      { line: 11, column: 'routing_number', reason: 'is required for Bangladesh' },
      { line: 12, column: 'routing_number', reason: 'duplicate routing number 020150130: first given on line 2' },
      { line: 13, column: 'bank_code', reason: 'bank EQBL is not routable' },
      { line: 14, column: 'state', reason: '"Maharashtra" is not a state of BD' },
      { line: 15, column: 'branch_name', reason: 'is required' },
      // A line break inside a quoted value is a control character like any other (one rule, issue 12).
      { line: 15, column: 'address_line1', reason: 'must not contain control characters' },
      // A row with too few fields is reported as such, not column by column.
      { line: 17, column: null, reason: 'has 5 fields; the header has 10' },
      { line: 19, column: 'routing_number', reason: 'district code 26 is Dhaka, but the district column says Sylhet' },
    ]);
  });

  it('refuses a file whose header lacks a column or has an unknown one', async () => {
    const path = write('branches-header.csv', [
      'country,bank_code,bank_name,routing_number,branch_name,address_line1,address_line2,city,district,province',
      GOOD_BD,
    ]);
    await expectRejected('branches', path, [
      { line: 1, column: null, reason: 'the header is not the branches import format' },
      { line: 1, column: 'state', reason: 'missing column' },
      { line: 1, column: 'province', reason: 'unknown column' },
    ]);
  });

  it('refuses an empty file rather than serving no branches', async () => {
    await expectRejected('branches', write('branches-empty.csv', [BRANCH_HEADER]), [
      { line: null, column: null, reason: 'the file has no rows' },
    ]);
  });
});

const PARTNERS = readFileSync(join(SEED_DIR, 'partners.csv'), 'utf8').trimEnd().split('\n');

describe('partners', () => {
  it('reports every bad row (the shipped 40 partners are lines 2–41) and applies nothing', async () => {
    const path = write('partners-bad.csv', [
      ...PARTNERS,
      'MX,ABC12,X,X,N,01,,0', //                                 42
      'MX,NEWAMX,X,X,X,01,,0', //                                43
      'MX,NEWBMX,X,X,N,01 09,,0', //                             44
      'IN,NEWCIN,X,X,N,01,,0', //                                45
      'BD,NEWDBD,X,X,N,04,,0', //                                46
      'MX,NEWEMX,X,X,N,01,020,0', //                             47
      'IN,NEWFIN,X,X,N,04,12,0', //                              48
      'MX,ELEKMX,X,X,N,01,,0', //                                49
      'ZZ,NEWGZZ,X,X,N,01,,0', //                                50
      'MX,NEWHMX,,X,N,01,,0', //                                 51
      'MX,NEWIMX,X,X,N,01,,many', //                             52
    ]);
    await expectRejected('partners', path, [
      { line: 42, column: 'head_office_code', reason: 'must be six upper-case letters or digits' },
      {
        line: 43,
        column: 'payout_type',
        reason: 'must be N (anywhere within the network), C (anywhere within the country) or O (others)',
      },
      { line: 44, column: 'delivery_modes', reason: '"09" not in the delivery mode catalog' },
      { line: 45, column: 'delivery_modes', reason: 'India takes account transfers only as delivery mode 04' },
      { line: 46, column: 'routes_to_banks', reason: 'is required with delivery mode 04' },
      { line: 47, column: 'routes_to_banks', reason: 'applies only to delivery mode 04' },
      { line: 48, column: 'routes_to_banks', reason: '"12": each must be the four-letter IFSC bank prefix' },
      { line: 49, column: 'head_office_code', reason: 'duplicate head office code ELEKMX: first given on line 2' },
      { line: 50, column: 'country', reason: 'is not an ISO 3166-1 alpha-2 country code' },
      { line: 51, column: 'head_office_name', reason: 'is required' },
      { line: 52, column: 'demo_locations', reason: 'must be a whole number' },
    ]);
  });

  it('refuses partners that would orphan served agents or leave served branches unroutable', async () => {
    // Without Elektra (line 2, 1,200 served agents) and without the two Bangladesh mode-04 head offices.
    const kept = PARTNERS.filter((line) => !/,(ELEKMX|BRACBD|SONLBD),/.test(line));
    const run = await expectRejected('partners', write('partners-dropping.csv', kept), [
      {
        line: null,
        column: 'head_office_code',
        reason: 'head office ELEKMX is left out, but 1200 served agents belong to it',
      },
      { line: null, column: 'head_office_code', reason: 'head office BRACBD is left out' },
      { line: null, column: 'head_office_code', reason: 'head office SONLBD is left out' },
      ...bangladeshBanks().map((bank) => ({
        line: null,
        column: 'routes_to_banks',
        reason: `would pay into BD bank ${bank},`,
      })),
    ]);
    expect(run.stdout).toMatch(/new data set would leave served data without its references/);
  });
});

/** The banks of the seeded Bangladesh branches. */
function bangladeshBanks(): string[] {
  const db = new Database(data.file, { readonly: true });
  const banks = db
    .prepare("SELECT DISTINCT bank_code FROM bank_branches WHERE country = 'BD' ORDER BY 1")
    .pluck()
    .all() as string[];
  db.close();
  return banks;
}

const AGENT_HEADER =
  'agent_code,head_office_code,country,agent_name,address_line1,address_line2,city,state,phone_number';
const GOOD_AGENT = 'ELEKMX99001,ELEKMX,MX,Elektra Centro,1 Calle Madero,,Ciudad de México,CMX,+52 55 5555 5555';

describe('agents', () => {
  it('reports every bad row with its line, column and reason, and applies nothing', async () => {
    const path = write('agents-bad.csv', [
      AGENT_HEADER, //                                                                          1
      GOOD_AGENT, //                                                                            2
      'elek1,ELEKMX,MX,A,1 Calle,,Puebla,PUE,', //                                              3
      'ELEKMX99002,NOPENO,MX,A,1 Calle,,Puebla,PUE,', //                                        4
      'ELEKMX99003,ELEKMX,GT,A,1 Calle,,Guatemala,GU,', //                                      5
      'ELEKMX99004,ELEKMX,MX,A,1 Calle,,Puebla,Nowhere,', //                                    6
      'ELEKMX99005,ELEKMX,MX,A,1 Calle,,Puebla,PUE,12345', //                                   7
      'ELEKMX99001,ELEKMX,MX,A,1 Calle,,Puebla,PUE,', //                                        8
      'ELEKMX99006,ELEKMX,MX,,1 Calle,,Puebla,PUE,', //                                         9
      'ELEKMX99007,ELEKMX,MX,A,,,Puebla,PUE,', //                                              10
    ]);
    await expectRejected('agents', path, [
      { line: 3, column: 'agent_code', reason: 'must be 1 to 20 upper-case letters or digits' },
      { line: 4, column: 'head_office_code', reason: 'head office NOPENO does not exist' },
      { line: 5, column: 'country', reason: 'head office ELEKMX is in MX, not GT' },
      { line: 6, column: 'state', reason: '"Nowhere" is not a state of MX' },
      { line: 7, column: 'phone_number', reason: 'is not a valid phone number of MX' },
      { line: 8, column: 'agent_code', reason: 'duplicate agent code ELEKMX99001: first given on line 2' },
      { line: 9, column: 'agent_name', reason: 'is required' },
      { line: 10, column: 'address_line1', reason: 'is required' },
    ]);
  });

  it('reports JSON rows by the line their object starts on', async () => {
    const path = join(data.dir, 'agents-bad.json');
    writeFileSync(
      path,
      [
        '[', //                                                                                                           1
        '  {"agent_code": "ELEKMX99001", "head_office_code": "ELEKMX", "country": "MX", "agent_name": "Elektra Centro",', // 2
        '   "address_line1": "1 Calle Madero", "city": "Ciudad de México", "state": "CMX", "phone_number": "+52 55 5555 5555"},', // 3
        '  {"agent_code": "ELEKMX99002", "head_office_code": "ELEKMX", "country": "MX", "agent_name": "{[tricky]}",', // 4
        '   "address_line1": "1 Calle", "city": "Puebla", "state": "PUE", "phone_number": 12345},', //                          5
        '  {"agent_code": "ELEKMX99003", "head_office_code": "ELEKMX", "country": "MX", "agent_name": "A",', //              6
        '   "address_line1": "1 Calle", "city": "Puebla", "state": "PUE", "fax": "1"},', //                                  7
        '  "not an object"', //                                                                                            8
        ']',
      ].join('\n'),
    );
    await expectRejected('agents', path, [
      { line: 4, column: 'phone_number', reason: 'is not a valid phone number of MX' },
      { line: 6, column: 'fax', reason: 'unknown field' },
      { line: 8, column: null, reason: 'must be an object' },
    ]);
  });
});
