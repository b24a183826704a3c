import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { SEED_DIR } from '../../seed/seed';
import { StateResolver } from '../../seed/states';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { runCli, seededDataDir, servedChecksum, type DataDir } from '../../../testing/import-cli';

// Import → export of the shipped real data gives the same rows. Every column comes back as published except
// a branch's state, which the service serves as its state code (GET /v1/states): the exported state is the
// code of the published name. Exported files are themselves importable and export unchanged (a fixed point).

let data: DataDir;
beforeAll(() => { data = seededDataDir(); });
afterAll(() => data.remove());

const rowsOf = (text: string | Buffer) => parse(text, { columns: true, bom: true, trim: true, skip_empty_lines: true }) as Record<string, string>[];

async function importOk(kind: string, path: string) {
  const run = await runCli('import', [kind, path], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain('applied');
}

async function exportText(kind: string, name: string, extra: string[] = []) {
  const out = join(data.dir, name);
  const run = await runCli('export', [kind, '--out', out, ...extra], data.dir);
  expect(run.code, run.stderr).toBe(0);
  return readFileSync(out, 'utf8');
}

it('partners and the three branch files come back as shipped', async () => {
  const countries = ['BD', 'IN', 'NG'];
  await importOk('partners', join(SEED_DIR, 'partners.csv'));
  for (const country of countries) await importOk('branches', join(SEED_DIR, 'bank-branches', `${country}.csv`));

  const partners = await exportText('partners', 'partners-export.csv');
  expect(rowsOf(partners)).toEqual(rowsOf(readFileSync(join(SEED_DIR, 'partners.csv'))));

  const store = SqliteStore.open(data.file, { readonly: true });
  const resolver = new StateResolver((await store.readDataSet()).states);
  await store.close();
  const exported = rowsOf(await exportText('branches', 'branches-export.csv'));
  for (const country of countries) {
    const shipped = rowsOf(readFileSync(join(SEED_DIR, 'bank-branches', `${country}.csv`)));
    const served = exported.filter((row) => row.country === country);
    expect(served).toHaveLength(shipped.length);
    expect(served).toEqual(shipped.map((row) => ({ ...row, state: resolver.resolve(country, row.state) ?? '' })));
  }

  // The exported file (all three countries in one) imports cleanly and exports unchanged.
  const before = servedChecksum(data.file);
  await importOk('branches', join(data.dir, 'branches-export.csv'));
  expect(await exportText('branches', 'branches-export-2.csv')).toBe(readFileSync(join(data.dir, 'branches-export.csv'), 'utf8'));
  // Same rows everywhere; the one exported file now stands for the three country files in data-status.
  expect(servedChecksum(data.file).counts).toEqual({ ...before.counts, data_sources: before.counts.data_sources - 2 });
}, 600_000);

it('agents: export → import → export gives the same file', async () => {
  const first = await exportText('agents', 'agents-export.csv');
  expect(rowsOf(first)).toHaveLength(25_120);
  await importOk('agents', join(data.dir, 'agents-export.csv'));
  expect(await exportText('agents', 'agents-export-2.csv')).toBe(first);
}, 600_000);
