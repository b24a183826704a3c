import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { csvRows } from '../../../testing/csv-rows';
import { SEED_DIR } from '../../seed/seed';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { REPO_ROOT, runCli, seededDataDir, type DataDir } from '../../../testing/import-cli';

// `npm run export` as operators run it (issue 12, items 3 and 4): the whole data set reaches a slow pipe, and
// no cell can be read by a spreadsheet as a formula, while import → export → import gives back the same values.

let data: DataDir;
beforeAll(() => {
  data = seededDataDir();
});
afterAll(() => data.remove());

const rowsOf = (text: string) => csvRows(text);

it('writes every row to a pipe whose reader is slow', async () => {
  const store = SqliteStore.open(data.file, { readonly: true });
  const branches = (await store.readDataSet()).dataSet.branches.length;
  await store.close();
  const child = spawn(process.execPath, [join('dist', 'server', 'export.js'), 'branches'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: data.dir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Not reading for a while fills the pipe (64 KiB), as `| wc -l` behind a busy machine or `| less` does.
  child.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, 4000));
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  const text = Buffer.concat(chunks).toString('utf8');
  // A header line and a line per branch (values hold no line breaks: control characters are refused).
  expect(text.split('\n').length - 2).toBe(branches);
  expect(rowsOf(text)).toHaveLength(branches);
  expect(text.endsWith('\n')).toBe(true);
}, 60_000);

it('neutralises formula-looking cells and reads them back exactly', async () => {
  const values = ['=HYPERLINK("http://x","y")', '+52 55 1234', '-1+2', '@SUM(A1)'];
  const partners = readFileSync(join(SEED_DIR, 'partners.csv'), 'utf8').split('\n');
  // Four head offices get a formula-looking name (quoted: the names hold commas and quotes).
  const edited = partners.map((line, i) => {
    if (i < 1 || i > values.length) return line;
    const cells = line.split(',');
    cells[2] = `"${values[i - 1].replaceAll('"', '""')}"`;
    return cells.join(',');
  });
  const file = join(data.dir, 'partners-formulas.csv');
  writeFileSync(file, edited.join('\n'));
  const imported = await runCli('import', ['partners', file], data.dir);
  expect(imported.code, imported.stdout + imported.stderr).toBe(0);

  const out = join(data.dir, 'partners-export.csv');
  const exported = await runCli('export', ['partners', '--out', out], data.dir);
  expect(exported.code, exported.stderr).toBe(0);
  const written = rowsOf(readFileSync(out, 'utf8'));
  // No cell of the file starts like a formula; the agents' phone numbers (+…) included.
  const agentsOut = join(data.dir, 'agents-export.csv');
  expect((await runCli('export', ['agents', '--out', agentsOut], data.dir)).code).toBe(0);
  const agents = rowsOf(readFileSync(agentsOut, 'utf8'));
  expect(agents.some((row) => row.phone_number.startsWith("'+"))).toBe(true);
  for (const row of [...written, ...agents])
    for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  expect(written.slice(0, values.length).map((row) => row.head_office_name)).toEqual(values.map((v) => `'${v}`));

  // Imported again, the exported file gives the same served values, and exports byte for byte the same.
  const again = await runCli('import', ['partners', out], data.dir);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  const store = SqliteStore.open(data.file, { readonly: true });
  const names = (await store.readDataSet()).dataSet.headOffices.slice(0, values.length).map((h) => h.name);
  await store.close();
  expect(names).toEqual(values);
  const out2 = join(data.dir, 'partners-export-2.csv');
  expect((await runCli('export', ['partners', '--out', out2], data.dir)).code).toBe(0);
  expect(readFileSync(out2, 'utf8')).toBe(readFileSync(out, 'utf8'));
}, 120_000);
