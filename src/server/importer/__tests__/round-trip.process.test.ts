import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { csvRows } from '../../../testing/csv-rows';
import { stringify } from 'csv-stringify/sync';
import { createTestApp } from '../../../testing/test-app';
import { SEED_DIR } from '../../seed/seed';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { runCli, seededDataDir, servedChecksum, type DataDir } from '../../../testing/import-cli';
import { repairReplacementCharacters } from '../repair-text';

// Import → export of the shipped real data gives the same rows, every column as published (a branch's state
// too: the service serves its code, GET /v1/states, and keeps the file's spelling for export). Exported files
// are themselves importable and export unchanged (a fixed point).

let data: DataDir;
beforeAll(() => {
  data = seededDataDir();
});
afterAll(() => data.remove());

const rowsOf = (text: string | Buffer) => csvRows(text);

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

  const exported = rowsOf(await exportText('branches', 'branches-export.csv'));
  for (const country of countries) {
    // The importer trims every value (row-schemas.ts); the restored India file has 5 quoted cells ending in spaces.
    const shipped = rowsOf(readFileSync(join(SEED_DIR, 'bank-branches', `${country}.csv`))).map((row) =>
      Object.fromEntries(Object.entries(row).map(([name, value]) => [name, value.trim()])),
    );
    const served = exported.filter((row) => row.country === country);
    expect(served).toHaveLength(shipped.length);
    // Published text holding U+FFFD is repaired at import (repair-text.ts); none is left.
    const repaired = shipped.map((row) =>
      Object.fromEntries(Object.entries(row).map(([name, value]) => [name, repairReplacementCharacters(value)])),
    );
    expect(served.filter((row) => Object.values(row).some((value) => value.includes('\uFFFD')))).toEqual([]);
    if (country === 'NG') {
      // Nigeria's list gives no city: a branch takes one from its address within its state (address-city.ts).
      const withoutCity = (rows: Record<string, string>[]) => rows.map(({ city: _city, ...rest }) => rest);
      expect(withoutCity(served)).toEqual(withoutCity(repaired));
      expect(shipped.filter((row) => row.city !== '')).toEqual([]);
      expect(served.filter((row) => row.city !== '').length).toBeGreaterThan(shipped.length / 2);
    } else expect(served).toEqual(repaired);
  }
  // What is served is the state's code: the spelling is kept for export only.
  const store = SqliteStore.open(data.file, { readonly: true });
  const served = (await store.readDataSet()).dataSet.branches.find((b) => b.routingNumber === 'ABHY0065002');
  await store.close();
  expect(served).toMatchObject({ state: 'MH', publishedState: 'MAHARASHTRA' });

  // The exported file (all three countries in one) imports cleanly and exports unchanged.
  const before = servedChecksum(data.file);
  await importOk('branches', join(data.dir, 'branches-export.csv'));
  expect(await exportText('branches', 'branches-export-2.csv')).toBe(
    readFileSync(join(data.dir, 'branches-export.csv'), 'utf8'),
  );
  // Same rows everywhere; the one exported file now stands for the three country files in data-status.
  expect(servedChecksum(data.file).counts).toEqual({ ...before.counts, data_sources: before.counts.data_sources - 2 });
}, 600_000);

it('agents: export → import → export gives the same file', async () => {
  const first = await exportText('agents', 'agents-export.csv');
  expect(rowsOf(first)).toHaveLength(25_120);
  await importOk('agents', join(data.dir, 'agents-export.csv'));
  expect(await exportText('agents', 'agents-export-2.csv')).toBe(first);
}, 600_000);

it('agents: a state given by its name is served as its code and exported as given', async () => {
  const exported = rowsOf(await exportText('agents', 'agents-before-names.csv'));
  const store = SqliteStore.open(data.file, { readonly: true });
  const states = (await store.readDataSet()).dataSet.states;
  await store.close();
  // Every agent's state written as its name (e.g. "Puebla" for PUE), as an operator's file may have it.
  const named = exported.map((row) => ({
    ...row,
    state: states.find((s) => s.country === row.country && s.code === row.state)!.name,
  }));
  const path = join(data.dir, 'agents-state-names.csv');
  writeFileSync(path, stringify(named, { header: true, columns: Object.keys(named[0]) }));
  await importOk('agents', path);
  expect(rowsOf(await exportText('agents', 'agents-after-names.csv'))).toEqual(named);
  const t = await createTestApp({ store: SqliteStore.open(data.file) });
  try {
    // The first agent's head office (ACCSNG, Nigeria) offers cash pickup.
    const { state: code, country } = exported[0];
    const res = await t.get('/v1/agents', {
      receivingCountry: country,
      deliveryMode: '01',
      state: code,
      pageSize: '5',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.length).toBeGreaterThan(0);
    for (const agent of res.json().data) expect(agent.state).toBe(code);
  } finally {
    await t.close();
  }
}, 600_000);
