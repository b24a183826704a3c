import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import { writeLargeBangladeshBranchFile } from '../../../testing/large-branch-file';
import { seededDataDir, startCli, type DataDir } from '../../../testing/import-cli';

// The import command (another process, its own connection) replaces Bangladesh's branches while the real app
// answers requests on the same database: every answer comes wholly from the old set or wholly from the new
// one. The sets are told apart by their rows (new branch names carry a marker) and by their totals.

const MARKER = 'NEWSET';
const NEW_ROWS = 30_000;
let data: DataDir;
let newFile: string;
let t: TestApp;
beforeAll(async () => {
  data = seededDataDir();
  newFile = join(data.dir, 'bd-new.csv');
  await writeLargeBangladeshBranchFile(newFile, NEW_ROWS, MARKER);
  // The search index is built in a worker thread and swapped in when the import commits, as in the server.
  t = await createTestApp({ store: SqliteStore.open(data.file), searchIndexBuild: 'worker' });
  await t.app.searchIndex.whenReady();
});
afterAll(async () => {
  await t.close();
  data.remove();
});

type Answer = { data: { branchName?: string; agentName?: string }[]; pagination: { totalItems: number } };

const LOOKUPS: { path: string; query: Record<string, string>; name: (row: Answer['data'][number]) => string }[] = [
  {
    path: '/v1/banks/branches',
    query: { receivingCountry: 'BD', deliveryMode: '04', receivingAgentHeadOfficeCode: 'BRACBD', pageSize: '50' },
    name: (r: Answer['data'][number]) => r.branchName!,
  },
  {
    path: '/v1/agents',
    query: { receivingCountry: 'BD', deliveryMode: '04', pageSize: '50' },
    name: (r: Answer['data'][number]) => r.agentName!,
  },
];

it('every answer during a replace is wholly old or wholly new', async () => {
  const { done } = startCli('import', ['branches', newFile, '--allow-removals'], data.dir);
  let finished = false;
  void done.then(() => (finished = true));
  const totals = LOOKUPS.map(() => ({ old: new Set<number>(), new: new Set<number>() }));
  let mixed = 0;
  let oldAnswers = 0;
  let newAnswers = 0;
  // Bounded: until the import has finished and the app has served the new set (its index is rebuilt after the
  // commit: at most 60 s after the import ended), and 100,000 requests in all.
  let finishedAt = 0;
  const versions = new Map<string, 'old' | 'new'>();
  for (
    let i = 0;
    i < 100_000 && !(finished && newAnswers > 10) && (!finishedAt || Date.now() - finishedAt < 60_000);
    i++
  ) {
    if (finished && !finishedAt) finishedAt = Date.now();
    // app.inject settles in microtasks: let the event loop run, or the import's exit is never noticed.
    await nextTurn();
    const lookup = LOOKUPS[i % LOOKUPS.length];
    const res = await t.get(lookup.path, { ...lookup.query, pageNumber: String(1 + (i % 5)) });
    expect(res.statusCode).toBe(200);
    const answer = res.json() as Answer;
    const marked = answer.data.filter((row) => lookup.name(row).includes(MARKER)).length;
    // The x-data-version header names the data set the answer came from: one set per version.
    const kind = marked === answer.data.length ? 'new' : 'old';
    const version = String(res.headers['x-data-version']);
    expect(versions.get(version) ?? kind).toBe(kind);
    versions.set(version, kind);
    if (marked === answer.data.length) {
      newAnswers++;
      totals[i % LOOKUPS.length].new.add(answer.pagination.totalItems);
    } else if (marked === 0) {
      oldAnswers++;
      totals[i % LOOKUPS.length].old.add(answer.pagination.totalItems);
    } else mixed++;
  }
  const run = await done;
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(mixed).toBe(0);
  expect(oldAnswers).toBeGreaterThan(0);
  expect(newAnswers).toBeGreaterThan(0);
  expect(new Set(versions.values())).toEqual(new Set(['old', 'new']));
  // Each set has one total per lookup: no answer had the rows of one set and the total of the other.
  expect([...totals[0].old]).toEqual([10_026]);
  expect([...totals[0].new]).toEqual([NEW_ROWS]);
  for (const { old, new: fresh } of totals.slice(1)) {
    expect(old.size).toBe(1);
    expect(fresh.size).toBeLessThanOrEqual(1);
  }
}, 600_000);
