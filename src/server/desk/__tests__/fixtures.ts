import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { csvRows } from '../../../testing/csv-rows';
import { REPO_ROOT } from '../../paths';
import { branchesKind } from '../../importer/kinds';

// Branch files for the desk's tests, made from the shipped Bangladesh file (data/seed/bank-branches/BD.csv), and
// the difference they should make worked out from the files alone (routing number → row), not by the desk.

export type Cells = Record<string, string>;

export const shippedBangladesh = (): Cells[] =>
  csvRows(readFileSync(join(REPO_ROOT, 'data', 'seed', 'bank-branches', 'BD.csv')));

export function writeBranchFile(dir: string, name: string, rows: Cells[]): string {
  const path = join(dir, name);
  writeFileSync(path, stringify(rows, { header: true, columns: [...branchesKind.columns] }));
  return path;
}

/** A new AB Bank branch in Chattogram (bank 020, district 15, a serial BD.csv does not use). */
export const NEW_BRANCH: Cells = {
  country: 'BD',
  bank_code: '020',
  bank_name: 'AB BANK LIMITED',
  routing_number: '020159998',
  branch_name: 'AGRABAD EAST',
  address_line1: 'AGRABAD EAST BRANCH',
  address_line2: 'Chattogram, Chattogram Division, Bangladesh',
  city: '',
  district: 'Chattogram',
  state: 'Chattogram',
};

/** BD.csv with one branch added, one removed and `changed` branches renamed (branch name and address line 1). */
export function editedBangladesh(changed = 1, tag = 'RENAMED'): Cells[] {
  const rows = shippedBangladesh();
  const kept = rows.filter((_, i) => i !== 1);
  for (let i = 0; i < changed; i++) {
    kept[2 + i] = {
      ...kept[2 + i],
      branch_name: `${kept[2 + i].branch_name} ${tag}`,
      address_line1: `${kept[2 + i].address_line1} ${tag}`,
    };
  }
  return [...kept, NEW_BRANCH];
}

/** The difference of `next` against `served`, by routing number, from the cells alone. */
export function expectedDifference(served: Cells[], next: Cells[]) {
  const before = new Map(served.map((r) => [r.routing_number, r]));
  const after = new Map(next.map((r) => [r.routing_number, r]));
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => {
    const was = before.get(k);
    return was && Object.keys(was).some((column) => was[column] !== after.get(k)![column]);
  });
  return { added, removed, changed };
}
