import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../desk/shell-import';
import { SEED_DIR } from '../../seed/seed';
import type { LookupStore } from '../../store/store';
import { openTestStore, testEngines } from '../../../testing/test-app';

// Two imports of different kinds started together (issue 12, item 1): the one that commits second was built
// from the data set as it was before the first committed. It must be refused — reported, nothing changed —
// instead of writing back the other kind as it was and silently undoing the first import.

const dir = mkdtempSync(join(tmpdir(), 'rpl-lost-update-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PARTNER_NAME = 'GRUPO ELEKTRA RENAMED';
const BRANCH_NAME = 'AGRABAD RENAMED';

/** The real store, whose readDataSet answer is held back until `gate` opens (the first import's "slow" read). */
function withHeldRead(store: LookupStore, gate: Promise<void>, read: () => void): LookupStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'readDataSet') {
        return async () => {
          const answer = await target.readDataSet();
          read();
          await gate;
          return answer;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(testEngines())('two imports at once on %s', (engine) => {
  let store: LookupStore;
  let partnersFile: string;
  let branchesFile: string;
  beforeAll(async () => {
    store = await openTestStore(engine, mkdtempSync(join(dir, `${engine}-`)));
    partnersFile = join(dir, `partners-${engine}.csv`);
    writeFileSync(
      partnersFile,
      readFileSync(join(SEED_DIR, 'partners.csv'), 'utf8').replace('GRUPO ELEKTRA', PARTNER_NAME),
    );
    branchesFile = join(dir, `BD-${engine}.csv`);
    writeFileSync(
      branchesFile,
      readFileSync(join(SEED_DIR, 'bank-branches', 'BD.csv'), 'utf8').replace(',AGRABAD,', `,${BRANCH_NAME},`),
    );
  });
  afterAll(async () => store.close());

  it('refuses the import whose read is stale; the one that committed is kept', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let hasRead!: () => void;
    const branchesRead = new Promise<void>((resolve) => (hasRead = resolve));
    const branches = importFile(withHeldRead(store, gate, hasRead), 'branches', branchesFile);
    await branchesRead;
    // The partners import runs whole while the branches import holds the set it read.
    const partners = await importFile(store, 'partners', partnersFile);
    expect(partners.applied, JSON.stringify(partners.problems)).toBe(true);
    open();
    const late = await branches;

    expect(late.applied).toBe(false);
    expect(late.notApplied).toMatch(/changed/);
    expect(late.problems.map((p) => p.reason).join('\n')).toMatch(/another import committed/);
    const { dataSet } = await store.readDataSet();
    // The partners change survived; the refused branches import changed nothing.
    expect(dataSet.headOffices.find((h) => h.code === 'ELEKMX')?.name).toBe(PARTNER_NAME);
    expect(dataSet.branches.some((b) => b.branchName === BRANCH_NAME)).toBe(false);

    // Run again, on the current data set, it applies and keeps the partners change.
    const again = await importFile(store, 'branches', branchesFile);
    expect(again.applied).toBe(true);
    const after = (await store.readDataSet()).dataSet;
    expect(after.headOffices.find((h) => h.code === 'ELEKMX')?.name).toBe(PARTNER_NAME);
    expect(after.branches.some((b) => b.branchName === BRANCH_NAME)).toBe(true);
  });

  it('replaceDataSet refuses a stale expectedVersion inside its transaction', async () => {
    const { dataSet, version } = await store.readDataSet();
    expect(version).toBe(await store.dataVersion());
    await store.replaceDataSet(dataSet, { expectedVersion: version });
    const moved = await store.dataVersion();
    expect(moved).not.toBe(version);
    await expect(store.replaceDataSet({ ...dataSet, agents: [] }, { expectedVersion: version })).rejects.toThrow(
      /data version/,
    );
    expect(await store.dataVersion()).toBe(moved);
    expect((await store.readDataSet()).dataSet.agents.length).toBe(dataSet.agents.length);
  });
});
