import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { LOOKUP_HEADERS, openTestStore, testEngines } from '../../../testing/test-app';
import type { LookupStore } from '../../store/store';
import type { DiffEntry, ValidationProblem } from '../../../contract/ops-changes';
import { DeskEngine } from '../engine';
import { deskDbOf } from '../db';
import { SqliteStore } from '../../store/sqlite/sqlite-store';
import type { PgStore } from '../../store/postgres/pg-store';
import {
  OwnChangeError,
  RemovalsNotConfirmedError,
  RoleRequiredError,
  StaleChangeError,
  WrongStateError,
  type OpsActor,
} from '../desk';
import { NEW_BRANCH, editedBangladesh, expectedDifference, shippedBangladesh, writeBranchFile } from './fixtures';

// The desk's engine on each store, with real files made from the shipped Bangladesh branches: staging and the
// difference, the four-eyes rule, stale changes, the removal guard, versions and their retention, expiry,
// rollback (the served answers come back) and the audit trail.

const alice: OpsActor = { name: 'alice', roles: ['maker'], via: 'session' };
const bob: OpsActor = { name: 'bob', roles: ['checker'], via: 'session' };
const carol: OpsActor = { name: 'carol', roles: ['checker'], via: 'api-key' };
const dora: OpsActor = { name: 'dora', roles: ['maker', 'checker', 'admin'], via: 'session' };

describe.each(testEngines())('the operations desk on %s', (engine) => {
  let dir: string;
  let store: LookupStore;
  let desk: DeskEngine;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rpl-desk-'));
    store = await openTestStore(engine, dir);
    desk = new DeskEngine(store, { versionsKept: 3 });
  });
  afterEach(async () => {
    await desk.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stageRows = (actor: OpsActor, name: string, rows: Record<string, string>[]) =>
    desk.stage(actor, { kind: 'branches', path: writeBranchFile(dir, name, rows), fileName: name });

  /** What a teller's search answers for Bangladesh's AB Bank branches (the in-memory index, rebuilt). */
  async function bangladeshAnswers() {
    const app = await buildApp({ store, searchIndexBuild: 'inline' });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/banks/branches?receivingCountry=BD&deliveryMode=04&receivingAgentHeadOfficeCode=BRACBD&pageSize=1000',
        headers: LOOKUP_HEADERS,
      });
      expect(res.statusCode).toBe(200);
      return res.json() as { data: { branchName: string }[]; pagination: { totalItems: number } };
    } finally {
      await app.close();
    }
  }

  it('stages a file with its difference against the published data: exact added, removed and changed', async () => {
    const rows = editedBangladesh(2);
    const expected = expectedDifference(shippedBangladesh(), rows);
    expect([expected.added.length, expected.removed.length, expected.changed.length]).toEqual([1, 1, 2]);
    const progress: string[] = [];
    const change = await desk.stage(
      alice,
      { kind: 'branches', path: writeBranchFile(dir, 'bd-edited.csv', rows), fileName: 'bd-edited.csv' },
      { onProgress: (p) => progress.push(p.phase) },
    );
    expect(progress).toContain('validating');
    expect(progress.at(-1)).toBe('done');
    expect(change).toMatchObject({
      status: 'staged',
      kind: 'branches',
      countries: ['BD'],
      fileName: 'bd-edited.csv',
      rows: { read: rows.length, valid: rows.length, bad: 0 },
      problemCount: 0,
      approvable: true,
      stagedBy: 'alice',
      baseVersion: await store.dataVersion(),
    });
    expect(change.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(change.diff!.counts).toEqual({ added: 1, removed: 1, changed: 2 });
    expect(change.diff!.guard.flagged).toBe(false);
    expect(change.diff!.byCountry).toEqual([{ country: 'BD', bankCode: null, added: 1, removed: 1, changed: 2 }]);

    const all = await desk.diff(change.id, { pageNumber: 1, pageSize: 50 });
    expect(all.pagination.totalItems).toBe(4);
    const byOp = (op: string) => all.data.filter((e) => e.op === op).map((e) => e.key[1]);
    expect(byOp('added')).toEqual(expected.added);
    expect(byOp('removed')).toEqual(expected.removed);
    expect(byOp('changed').sort()).toEqual([...expected.changed].sort());
    const added = all.data.find((e) => e.op === 'added')!;
    expect(added).toMatchObject({
      key: ['BD', NEW_BRANCH.routing_number],
      country: 'BD',
      bankCode: '020',
      before: null,
    });
    expect(added.after).toMatchObject({ branchName: 'AGRABAD EAST', routingNumber: '020159998' });

    // Field by field, filtered and paged.
    const changed = await desk.diff(change.id, { op: 'changed', pageNumber: 1, pageSize: 1 });
    expect(changed.pagination).toEqual({ pageNumber: 1, pageSize: 1, totalItems: 2, totalPages: 2 });
    expect(changed.data[0].changedFields).toEqual(['branchName', 'addressLine1']);
    expect(changed.data[0].after!.branchName).toBe(`${changed.data[0].before!.branchName} RENAMED`);
    const second = await desk.diff(change.id, { op: 'changed', pageNumber: 2, pageSize: 1 });
    expect(second.data[0].key).not.toEqual(changed.data[0].key);
    const bank = change.diff!.byCountry[0] && (await desk.get(change.id)).byBank.find((b) => b.bankCode === '020')!;
    const ofBank = await desk.diff(change.id, { country: 'BD', bankCode: '020', pageNumber: 1, pageSize: 50 });
    expect(ofBank.pagination.totalItems).toBe(bank.added + bank.removed + bank.changed);
    expect(ofBank.data.every((e) => e.bankCode === '020')).toBe(true);

    // Nothing served changed; another engine instance on the same database sees the change.
    expect((await bangladeshAnswers()).data.map((b) => b.branchName)).not.toContain('AGRABAD EAST');
    const other = new DeskEngine(store);
    expect((await other.get(change.id)).diff!.counts).toEqual({ added: 1, removed: 1, changed: 2 });
    expect((await other.list({ status: 'staged', pageNumber: 1, pageSize: 10 })).data.map((c) => c.id)).toEqual([
      change.id,
    ]);
  });

  it('stages in a worker thread exactly what it stages in this thread: report, counts and every entry in order', async () => {
    // 5,000 changed rows: the entries cross the thread in several batches, the writer holding the worker back.
    const cases = {
      edited: editedBangladesh(5000, 'MOVED'),
      bad: shippedBangladesh().map((r, i) => (i % 1000 === 3 ? { ...r, routing_number: 'X1' } : r)),
    };
    for (const [name, rows] of Object.entries(cases)) {
      const path = writeBranchFile(dir, `${name}.csv`, rows);
      const staged: { summary: object; entries: DiffEntry[]; problems: ValidationProblem[] }[] = [];
      for (const stageInWorker of [false, true]) {
        const other = new DeskEngine(store, { stageInWorker });
        const change = await other.stage(alice, { kind: 'branches', path, fileName: `${name}.csv` });
        const entries: DiffEntry[] = [];
        for (let page = 1; ; page++) {
          const got = await other.diff(change.id, { pageNumber: page, pageSize: 1000 });
          entries.push(...got.data);
          if (page >= got.pagination.totalPages) break;
        }
        const problems = await other.problems(change.id, { pageNumber: 1, pageSize: 100 });
        const { id: _id, stagedAt: _at, updatedAt: _updated, expiresAt: _expires, ...summary } = change;
        staged.push({ summary, entries, problems: problems.data });
        await other.close();
      }
      expect(staged[1].summary).toEqual(staged[0].summary);
      expect(staged[1].problems).toEqual(staged[0].problems);
      const same = (e: unknown, i: number) => JSON.stringify(e) === JSON.stringify(staged[1].entries[i]);
      const differing = staged[0].entries.findIndex((e, i) => !same(e, i));
      expect(differing === -1 ? null : [staged[0].entries[differing], staged[1].entries[differing]]).toBeNull();
      expect(staged[1].entries.length).toBe(staged[0].entries.length);
      if (name === 'edited') expect(staged[0].entries.length).toBe(5002);
      else expect(staged[0].problems.length).toBe(11);
    }

    // Published by a worker thread through its own connection: served, a version with its snapshot, and the
    // baseline before it; a rollback staged from that baseline (in a worker too) restores the shipped answers.
    const worker = new DeskEngine(store, { stageInWorker: true });
    try {
      const moved = await worker.stage(alice, {
        kind: 'branches',
        path: writeBranchFile(dir, 'moved.csv', cases.edited),
        fileName: 'moved.csv',
      });
      const published = await worker.approve(bob, moved.id, { comment: 'in a worker', confirmRemovals: false });
      expect(published.status).toBe('published');
      const names = (await bangladeshAnswers()).data.map((b) => b.branchName);
      expect(names.some((n) => n.endsWith(' MOVED'))).toBe(true);
      const versions = await worker.versions({ kind: 'branches', pageNumber: 1, pageSize: 10 });
      expect(versions.data.map((v) => [v.changeId, v.rows, v.restorable])).toEqual([
        [moved.id, (await store.readDataSet()).dataSet.branches.length, true],
        [null, expect.any(Number), true],
      ]);
      const rollback = await worker.stageRollback(bob, versions.data[1].id);
      await worker.approve(dora, rollback.id, { comment: 'back', confirmRemovals: true });
      expect((await bangladeshAnswers()).data.map((b) => b.branchName).some((n) => n.endsWith(' MOVED'))).toBe(false);
    } finally {
      await worker.close();
    }
    // Four stagings, a publish and a rollback, each of the shipped data: longer than one request on a busy machine.
  }, 180_000);

  it('keeps the file before the change shows as staged: a checker who sees it staged can approve it', async () => {
    const path = writeBranchFile(dir, 'bd-kept.csv', editedBangladesh(3));
    const started = await desk.startStaging(alice, { kind: 'branches', path, fileName: 'bd-kept.csv' });
    const seen: string[] = [];
    for (let done = false; !done; await new Promise((resolve) => setImmediate(resolve))) {
      const sql =
        'SELECT status, EXISTS (SELECT 1 FROM desk_files f WHERE f.change_id = c.id) AS kept FROM desk_changes c WHERE id = ';
      const row = (
        store instanceof SqliteStore
          ? store.db.prepare(`${sql}?`).get(started.id)
          : (await (store as PgStore).pool.query(`${sql}$1`, [started.id])).rows[0]
      ) as { status: string; kept: number | boolean };
      seen.push(`${row.status}${row.kept ? '+file' : ''}`);
      done = row.status !== 'validating';
    }
    await started.done;
    expect(seen).not.toContain('staged');
    expect(seen.at(-1)).toBe('staged+file');
  });

  it('keeps a file with bad rows, every fault with its value; it cannot be approved', async () => {
    const rows = shippedBangladesh().slice(0, 40);
    rows[3] = { ...rows[3], routing_number: '12345' };
    rows[7] = { ...rows[7], bank_name: '' };
    rows[10] = { ...rows[10], state: 'Atlantis' };
    const change = await stageRows(alice, 'bd-bad.csv', rows);
    expect(change).toMatchObject({ status: 'staged', approvable: false, rows: { read: 40, valid: 37, bad: 3 } });
    // The difference of the 37 valid rows is shown (the 3 bad rows' branches read as removed); approval stays blocked.
    expect(change.diff!.counts).toMatchObject({ added: 0, removed: shippedBangladesh().length - 37 });
    const problems = await desk.problems(change.id, { pageNumber: 1, pageSize: 50 });
    expect(problems.data.map((p) => [p.row, p.column, p.value])).toEqual([
      [5, 'routing_number', '12345'],
      [9, 'bank_name', ''],
      [12, 'state', 'Atlantis'],
    ]);
    expect(problems.data.every((p) => p.message && p.rule)).toBe(true);
    const detail = await desk.get(change.id);
    expect(detail.ruleCounts.reduce((n, r) => n + r.count, 0)).toBe(3);
    const streamed = [];
    for await (const p of desk.allProblems(change.id)) streamed.push(p);
    expect(streamed).toEqual(problems.data);
    await expect(desk.approve(bob, change.id, { comment: '', confirmRemovals: true })).rejects.toBeInstanceOf(
      WrongStateError,
    );
    // The maker reads the errors and discards it.
    expect((await desk.discard(alice, change.id)).status).toBe('discarded');
  });

  it('never lets the maker approve their own change; a checker publishes it and a version is recorded', async () => {
    const change = await stageRows(dora, 'bd-edited.csv', editedBangladesh(1));
    await expect(desk.approve(dora, change.id, { comment: 'mine', confirmRemovals: false })).rejects.toBeInstanceOf(
      OwnChangeError,
    );
    await expect(desk.approve(alice, change.id, { comment: '', confirmRemovals: false })).rejects.toBeInstanceOf(
      RoleRequiredError,
    );
    const published = await desk.approve(bob, change.id, {
      comment: 'checked against the bank letter',
      confirmRemovals: false,
    });
    expect(published).toMatchObject({
      status: 'published',
      decidedBy: 'bob',
      comment: 'checked against the bank letter',
    });
    expect((await bangladeshAnswers()).data.map((b) => b.branchName)).toContain('AGRABAD EAST');
    await expect(desk.approve(carol, change.id, { comment: '', confirmRemovals: false })).rejects.toBeInstanceOf(
      WrongStateError,
    );

    const versions = await desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 10 });
    expect(versions.data.map((v) => [v.changeId, v.stagedBy, v.approvedBy, v.fileName])).toEqual([
      [change.id, 'dora', 'bob', 'bd-edited.csv'],
      [null, null, null, 'BD.csv IN.csv NG.csv'],
    ]);
    expect(versions.data[0]).toMatchObject({
      sha256: change.sha256,
      restorable: true,
      dataVersion: await store.dataVersion(),
    });
    expect(versions.data[0].diff!.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    const audit = await desk.audit({ pageNumber: 1, pageSize: 50 });
    expect(audit.data.map((a) => [a.action, a.actor])).toEqual([
      ['publish', 'bob'],
      ['approve', 'bob'],
      ['stage', 'dora'],
    ]);
  });

  it('refuses a change whose data version is no longer served (409), and diffs it again against the current data', async () => {
    const first = await stageRows(alice, 'bd-first.csv', editedBangladesh(1, 'FIRST'));
    const second = await stageRows(alice, 'bd-second.csv', editedBangladesh(3, 'SECOND'));
    await desk.approve(bob, first.id, { comment: '', confirmRemovals: false });
    expect((await desk.get(second.id)).status).toBe('stale');
    const refused = await desk
      .approve(bob, second.id, { comment: '', confirmRemovals: false })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StaleChangeError);
    expect((refused as StaleChangeError).status).toBe(409);
    // Re-diffed against the first change's data: the new branch is already there; three branches renamed
    // (one of them FIRST → SECOND) and the removed one stays removed.
    const again = await desk.get(second.id);
    expect(again).toMatchObject({ status: 'staged', baseVersion: await store.dataVersion(), approvable: true });
    expect(again.diff!.counts).toEqual({ added: 0, removed: 0, changed: 3 });
    const published = await desk.approve(bob, second.id, { comment: 'looked again', confirmRemovals: false });
    expect(published.status).toBe('published');
    const names = (await bangladeshAnswers()).data.map((b) => b.branchName);
    expect(names.filter((n) => n.endsWith('SECOND'))).toHaveLength(3);
    expect(names.filter((n) => n.endsWith('FIRST'))).toHaveLength(0);
  });

  it('flags a change removing more than 20 % of a country; approving it needs confirmRemovals', async () => {
    const change = await stageRows(alice, 'bd-17.csv', shippedBangladesh().slice(0, 17));
    expect(change.diff!.counts).toEqual({ added: 0, removed: 10_026 - 17, changed: 0 });
    expect(change.diff!.guard.flagged).toBe(true);
    expect(change.diff!.guard.flags.map((f) => [f.scope, f.country, f.removed, f.served])).toEqual([
      ['country', 'BD', 10_009, 10_026],
      ['kind', null, 10_009, 10_026 + 9_999 + 4_089],
    ]);
    const refused = await desk
      .approve(bob, change.id, { comment: '', confirmRemovals: false })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RemovalsNotConfirmedError);
    expect((refused as RemovalsNotConfirmedError).status).toBe(422);
    expect((await desk.get(change.id)).status).toBe('staged');
    await desk.approve(bob, change.id, { comment: 'the bank closed them', confirmRemovals: true });
    expect((await bangladeshAnswers()).pagination.totalItems).toBeLessThanOrEqual(17);
  });

  it('keeps the last N versions; rollback is a change that restores the served answers', async () => {
    const before = await bangladeshAnswers();
    const cut = await stageRows(alice, 'bd-17.csv', shippedBangladesh().slice(0, 17));
    await desk.approve(bob, cut.id, { comment: '', confirmRemovals: true });
    expect((await bangladeshAnswers()).pagination.totalItems).not.toBe(before.pagination.totalItems);

    const baseline = (await desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 10 })).data.at(-1)!;
    expect(baseline.changeId).toBeNull();
    await expect(desk.stageRollback(alice, baseline.id)).rejects.toBeInstanceOf(RoleRequiredError);
    const rollback = await desk.stageRollback(bob, baseline.id);
    expect(rollback).toMatchObject({ status: 'staged', rollbackOf: baseline.id, stagedBy: 'bob', approvable: true });
    expect(rollback.diff!.counts).toEqual({ added: 10_009, removed: 0, changed: 0 });
    await expect(desk.approve(bob, rollback.id, { comment: '', confirmRemovals: false })).rejects.toBeInstanceOf(
      OwnChangeError,
    );
    await desk.approve(carol, rollback.id, { comment: 'restore', confirmRemovals: false });
    expect(await bangladeshAnswers()).toEqual(before);

    // Retention 3: baseline, cut, rollback, then a fourth version drops the baseline.
    const edit = await stageRows(alice, 'bd-edited.csv', editedBangladesh(1));
    await desk.approve(carol, edit.id, { comment: '', confirmRemovals: false });
    const kept = await desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 10 });
    expect(kept.data.map((v) => v.fileName)).toEqual([
      'bd-edited.csv',
      `rollback-to-version-${baseline.id}.csv`,
      'bd-17.csv',
    ]);
    await expect(desk.stageRollback(bob, baseline.id)).rejects.toThrow(/does not exist/);
    // The snapshots went with their versions: those kept (3) are all that is left in desk_snapshots.
    const db = deskDbOf(store);
    const snapshots = await db.all('SELECT id FROM desk_snapshots ORDER BY id');
    const pointedAt = await db.all('SELECT snapshot_id AS id FROM desk_versions ORDER BY snapshot_id');
    expect(snapshots.map((r) => Number(r.id))).toEqual(pointedAt.map((r) => Number(r.id)));
    expect(snapshots).toHaveLength(3);
    const audit = await desk.audit({ action: 'rollback-staged', pageNumber: 1, pageSize: 10 });
    expect(audit.data.map((a) => [a.actor, a.target])).toEqual([['bob', rollback.id]]);
  }, 300_000);

  it('expires a staged change nobody acts on', async () => {
    const change = await stageRows(alice, 'bd-edited.csv', editedBangladesh(1));
    expect(await desk.expire(new Date(Date.now() + 6 * 24 * 3_600_000))).toBe(0);
    expect(await desk.expire(new Date(Date.now() + 8 * 24 * 3_600_000))).toBe(1);
    expect((await desk.get(change.id)).status).toBe('expired');
    await expect(desk.approve(bob, change.id, { comment: '', confirmRemovals: false })).rejects.toBeInstanceOf(
      WrongStateError,
    );
    const audit = await desk.audit({ action: 'expire', actor: 'system', pageNumber: 1, pageSize: 10 });
    expect(audit.data.map((a) => a.target)).toEqual([change.id]);
  });

  it('rejects with a reason; pages and filters the audit trail', async () => {
    const change = await stageRows(alice, 'bd-edited.csv', editedBangladesh(1));
    await expect(desk.reject(bob, change.id, { reason: ' ' })).rejects.toThrow(/reason/);
    expect((await desk.reject(bob, change.id, { reason: 'wrong bank letter' })).comment).toBe('wrong bank letter');
    const from = new Date(Date.now() - 60_000).toISOString();
    await desk.recordOpsEvent({ actor: 'erin', via: 'session', action: 'sign-in', detail: { address: '127.0.0.1' } });
    const all = await desk.audit({ pageNumber: 1, pageSize: 2 });
    expect(all.pagination).toEqual({ pageNumber: 1, pageSize: 2, totalItems: 3, totalPages: 2 });
    expect(all.data.map((a) => a.action)).toEqual(['sign-in', 'reject']);
    expect((await desk.audit({ actor: 'bob', from, pageNumber: 1, pageSize: 10 })).data.map((a) => a.action)).toEqual([
      'reject',
    ]);
    expect((await desk.audit({ to: from, pageNumber: 1, pageSize: 10 })).data).toEqual([]);
  });
});
