import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apportion, dataSetHash, generateSeedFiles, generatedDataSet, writeSeedFiles } from '../generate';
import { buildSeedDataSet, readSeedFiles } from '../seed';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { repairReplacementCharacters } from '../../importer/repair-text';

// npm run gen: the same arguments give the same rows, at the asked size, and the data set survives the
// same load path as the importer's (replaceDataSet) and the CSV round trip unchanged.

const real = readSeedFiles();
const generate = (seed: number) =>
  generatedDataSet(generateSeedFiles({ branches: 3000, agents: 400, seed }, real), seed);

describe('generated data set', () => {
  it('is the same for the same arguments and differs for another seed', () => {
    const first = generate(7);
    expect(dataSetHash(generate(7))).toBe(dataSetHash(first));
    expect(dataSetHash(generate(8))).not.toBe(dataSetHash(first));
  });

  it('has exactly the asked number of branches and agents, in each real country, with unique routing numbers', () => {
    const dataSet = generate(7);
    expect(dataSet.branches).toHaveLength(3000);
    expect(dataSet.agents).toHaveLength(400);
    expect(new Set(dataSet.branches.map((b) => b.country))).toEqual(
      new Set(real.branchFiles.map((f) => f.records[0].country)),
    );
    const routing = dataSet.branches.map((b) => b.routingNumber).filter(Boolean);
    expect(new Set(routing).size).toBe(routing.length);
    // Drawn from the real vocabulary: every bank name and branch name is a real one (its text repaired as at import).
    const realBanks = new Set(
      real.branchFiles.flatMap((f) => f.records.map((r) => repairReplacementCharacters(r.bank_name))),
    );
    const realBranchNames = new Set(
      real.branchFiles.flatMap((f) => f.records.map((r) => repairReplacementCharacters(r.branch_name))),
    );
    expect(dataSet.branches.every((b) => realBanks.has(b.bankName) && realBranchNames.has(b.branchName))).toBe(true);
  });

  it('apportions a total in proportion, adding up exactly', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(1_000_000, [9999, 10026, 4089]).reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(apportion(5, [0, 0])).toEqual([0, 0]);
  });

  it('loads through replaceDataSet and reads back row for row; its CSV files import to the same rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rpl-gen-'));
    try {
      const files = generateSeedFiles({ branches: 3000, agents: 400, seed: 7 }, real);
      const dataSet = generatedDataSet(files, 7);
      const store = SqliteStore.open(join(dir, 'lookup.sqlite'));
      await store.replaceDataSet(dataSet);
      const loaded = (await store.readDataSet()).dataSet;
      await store.close();
      expect(loaded.branches).toEqual(dataSet.branches);
      expect(loaded.agents).toEqual(dataSet.agents);

      writeSeedFiles(files, dataSet, join(dir, 'csv'));
      const imported = buildSeedDataSet(join(dir, 'csv'));
      expect(imported.branches).toEqual(dataSet.branches);
      expect(imported.agents).toEqual(dataSet.agents);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
