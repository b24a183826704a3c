import { userInfo } from 'node:os';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import { LOOKUP_HEADERS } from '../../../testing/test-app';
import { runCli, seededDataDir, servedChecksum, type DataDir } from '../../../testing/import-cli';
import { deskDbOf } from '../db';
import { DeskEngine } from '../engine';
import { readRecordHistory } from '../record-history';
import type { OpsActor } from '../desk';
import { shippedBangladesh, writeBranchFile } from './fixtures';

// `npm run import` goes through the desk: a 17-row Bangladesh file (which used to replace 10,026 branches without
// a word) is refused over the removal guard unless --allow-removals; applied, it is a version the desk rolls back,
// and the served answers come back. Real child processes on a real SQLite file.

const bob: OpsActor = { name: 'bob', roles: ['checker'], via: 'session' };
const carol: OpsActor = { name: 'carol', roles: ['checker'], via: 'session' };
const shellUser = userInfo().username;

let data: DataDir;
beforeEach(() => {
  data = seededDataDir();
});
afterEach(() => data.remove());

async function withDesk<T>(use: (desk: DeskEngine, store: SqliteStore) => Promise<T>): Promise<T> {
  const store = SqliteStore.open(data.file);
  const desk = new DeskEngine(store);
  try {
    return await use(desk, store);
  } finally {
    await desk.close();
    await store.close();
  }
}

async function bangladeshAnswers(store: SqliteStore) {
  const app = await buildApp({ store, searchIndexBuild: 'inline' });
  try {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&pageSize=1000',
      headers: LOOKUP_HEADERS,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { pagination: { totalItems: number } };
  } finally {
    await app.close();
  }
}

it('refuses a 17-row Bangladesh file over the removal guard, and says so', async () => {
  const file = writeBranchFile(data.dir, 'bd-17.csv', shippedBangladesh().slice(0, 17));
  const before = servedChecksum(data.file);
  const dry = await runCli('import', ['branches', file, '--dry-run'], data.dir);
  expect(dry.code, dry.stdout + dry.stderr).toBe(0);
  expect(dry.stdout).toContain('0 added, 10009 removed, 0 changed, 17 unchanged');
  expect(dry.stdout).toContain('REMOVAL GUARD: this file removes 10009 of 10026 branches of BD (99.8 %)');
  expect(dry.stdout).toContain('NOT applied (dry run)');

  const run = await runCli('import', ['branches', file], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain('REMOVAL GUARD');
  expect(run.stdout).toContain('NOT applied: over the removal guard');
  expect(servedChecksum(data.file)).toEqual(before);
  await withDesk(async (desk) => {
    const audit = await desk.audit({ action: 'import-refused', pageNumber: 1, pageSize: 10 });
    expect(audit.data.map((a) => [a.actor, a.via, a.target])).toEqual([[shellUser, 'shell', 'bd-17.csv']]);
    expect((await desk.versions({ pageNumber: 1, pageSize: 10 })).data).toEqual([]);
  });
}, 300_000);

it('applies it with --allow-removals as a version the desk rolls back, and the answers come back', async () => {
  const before = await withDesk((_desk, store) => bangladeshAnswers(store));
  expect(before.pagination.totalItems).toBeGreaterThan(17);
  const file = writeBranchFile(data.dir, 'bd-17.csv', shippedBangladesh().slice(0, 17));
  const run = await runCli('import', ['branches', file, '--allow-removals'], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain('17 rows read, 17 valid, 0 bad; applied: replaced the branches of BD');
  expect(run.stdout).toContain(`recorded as version 2 by ${shellUser}`);

  await withDesk(async (desk, store) => {
    expect((await bangladeshAnswers(store)).pagination.totalItems).toBeLessThanOrEqual(17);
    const versions = (await desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 10 })).data;
    expect(versions.map((v) => [v.id, v.stagedBy, v.approvedBy, v.fileName, v.rows])).toEqual([
      [2, shellUser, shellUser, 'bd-17.csv', 17 + 9_999 + 4_089],
      [1, null, null, 'BD.csv IN.csv NG.csv', 10_026 + 9_999 + 4_089],
    ]);
    const audit = await desk.audit({ action: 'import', pageNumber: 1, pageSize: 10 });
    expect(audit.data.map((a) => [a.actor, a.via])).toEqual([[shellUser, 'shell']]);

    const rollback = await desk.stageRollback(bob, 1);
    expect(rollback.diff!.counts).toEqual({ added: 10_009, removed: 0, changed: 0 });
    await desk.approve(carol, rollback.id, { comment: 'restore the shipped branches', confirmRemovals: false });
    expect(await bangladeshAnswers(store)).toEqual(before);
  });
}, 300_000);

it("records each record's life: a branch the import changed has the version, the shell user, the file and before → after", async () => {
  const rows = shippedBangladesh();
  const target = rows[5]!;
  const edited = rows.map((row) => (row === target ? { ...row, address_line1: `${row.address_line1} (MOVED)` } : row));
  const file = writeBranchFile(data.dir, 'bd-moved.csv', edited);

  const dry = await runCli('import', ['branches', file, '--dry-run'], data.dir);
  expect(dry.code, dry.stdout + dry.stderr).toBe(0);
  await withDesk(async (_desk, store) => {
    // A dry run keeps nothing of its difference.
    expect(await deskDbOf(store).all('SELECT change_id FROM desk_diff')).toEqual([]);
  });

  const run = await runCli('import', ['branches', file], data.dir);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  await withDesk(async (_desk, store) => {
    const history = await readRecordHistory(deskDbOf(store), 'branches', ['BD', target.routing_number!]);
    expect(history.map((h) => [h.versionId, h.op, h.stagedBy, h.approvedBy, h.fileName, h.changedFields])).toEqual([
      [2, 'change', shellUser, shellUser, 'bd-moved.csv', ['addressLine1']],
    ]);
    expect(history[0]!.before!.addressLine1).toBe(target.address_line1);
    expect(history[0]!.after!.addressLine1).toBe(`${target.address_line1} (MOVED)`);
  });
}, 300_000);
