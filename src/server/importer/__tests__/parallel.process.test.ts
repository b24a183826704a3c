import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { PARALLEL_FROM_ROWS } from '../validate';
import { writeLargeBangladeshBranchFile } from '../../../testing/large-branch-file';
import { reportedProblems, runCli, seededDataDir, servedChecksum, type DataDir } from '../../../testing/import-cli';

// A large file through the import command (staged, then published by the desk: its publish validates the rows
// again in a worker thread). With a bad row anywhere (first rows, middle, last row) every bad row is reported as
// with a small file and nothing applied; --skip-invalid publishes the good rows alone.

const ROWS = PARALLEL_FROM_ROWS + 5_000;
const DUPLICATE_LINE = 12_345;
let data: DataDir;
let clean: string;
let bad: string;
beforeAll(async () => {
  data = seededDataDir();
  clean = join(data.dir, 'bd-large.csv');
  await writeLargeBangladeshBranchFile(clean, ROWS, 'PARALLEL');
  // Line 1 is the header; line n holds row n - 1. Three kinds of bad row, at the start, in the middle, last.
  const lines = readFileSync(clean, 'utf8').trimEnd().split('\n');
  const routingOf = (line: string) => line.split(',')[3];
  const last = lines.length;
  lines[3 - 1] = lines[3 - 1].replace(`,${routingOf(lines[3 - 1])},`, `,${routingOf(lines[3 - 1]).slice(0, 8)},`);
  lines[DUPLICATE_LINE - 1] = lines[2 - 1];
  lines[last - 1] = lines[last - 1].replace(/,[^,]*$/, ',Maharashtra');
  bad = join(data.dir, 'bd-large-bad.csv');
  writeFileSync(bad, lines.join('\n') + '\n');
});
afterAll(() => data.remove());

const bangladeshBranches = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT count(*) AS n, sum(branch_name LIKE 'PARALLEL %') AS marked FROM bank_branches WHERE country = 'BD'",
      )
      .get() as { n: number; marked: number };
  } finally {
    db.close();
  }
};

it('a bad row anywhere in a large file: nothing applied, every bad row reported', async () => {
  const before = servedChecksum(data.file);
  const run = await runCli('import', ['branches', bad], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  // Every bad row is reported, by line, as for a small file.
  const problems = reportedProblems(run.stdout, 'bd-large-bad.csv');
  expect(problems.map((p) => [p.line, p.column])).toEqual([
    [3, 'routing_number'],
    [DUPLICATE_LINE, 'routing_number'],
    [ROWS + 1, 'state'],
  ]);
  expect(problems[0].reason).toContain('must be a nine-digit Bangladesh Bank routing number');
  expect(problems[1].reason).toMatch(/^duplicate routing number \d{9}: first given on line 2$/);
  expect(problems[2].reason).toContain('"Maharashtra" is not a state of BD');
  expect(run.stdout).toContain(`${ROWS} rows read, ${ROWS - 3} valid, 3 bad; NOT applied`);
  expect(servedChecksum(data.file)).toEqual(before);
}, 300_000);

it('--skip-invalid on a large file applies the good rows only', async () => {
  const run = await runCli('import', ['branches', bad, '--skip-invalid', '--allow-removals'], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain(`${ROWS} rows read, ${ROWS - 3} valid, 3 bad; applied: replaced the branches of BD`);
  expect(bangladeshBranches(data.file)).toEqual({ n: ROWS - 3, marked: ROWS - 3 });
}, 300_000);

it('a clean large file is published whole', async () => {
  const run = await runCli('import', ['branches', clean, '--allow-removals'], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain(`${ROWS} rows read, ${ROWS} valid, 0 bad; applied: replaced the branches of BD.`);
  expect(bangladeshBranches(data.file)).toEqual({ n: ROWS, marked: ROWS });
  expect(servedChecksum(data.file).integrity).toBe('ok');
}, 300_000);

it('a large agents file with a duplicate code: reported, nothing applied', async () => {
  const exported = join(data.dir, 'agents.csv');
  const out = await runCli('export', ['agents', '--out', exported], data.dir);
  expect(out.code, out.stderr).toBe(0);
  const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
  expect(lines.length - 1).toBeGreaterThanOrEqual(PARALLEL_FROM_ROWS);
  // The agents table keeps agent codes unique: line 20,001 repeats line 2's.
  lines[20_001 - 1] = lines[2 - 1];
  const path = join(data.dir, 'agents-duplicate.csv');
  writeFileSync(path, lines.join('\n') + '\n');
  const before = servedChecksum(data.file);
  const run = await runCli('import', ['agents', path], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const problems = reportedProblems(run.stdout, 'agents-duplicate.csv');
  expect(problems).toEqual([
    {
      line: 20_001,
      column: 'agent_code',
      reason: expect.stringMatching(/^duplicate agent code \w+: first given on line 2$/),
    },
  ]);
  expect(run.stdout).toContain('NOT applied');
  expect(servedChecksum(data.file)).toEqual(before);
}, 300_000);
