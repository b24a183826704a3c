import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestStore, testEngines } from '../../../testing/test-app';
import { ChangeNotHeldError } from '../../store/store';
import { deskDbOf } from '../db';
import type { OpsActor } from '../desk';
import { DeskEngine } from '../engine';
import { buildChange } from '../prepare';
import { newLeaseOwner } from '../recovery';
import { editedBangladesh, writeBranchFile } from './fixtures';

// Several instances on one database (crash.process.test.ts kills real processes; this puts the states a crash leaves
// straight into the database, through the store's real swap): a publish whose instance stopped after its data
// swap is completed by exactly one of the instances recovering at once, only once its lease has run out; a swap
// by an instance that no longer holds its change is refused.

const alice: OpsActor = { name: 'alice', roles: ['maker'], via: 'session' };
const LEASE_MS = 1000;

describe.each(testEngines())('recovery with several instances on %s', (engine) => {
  it('completes an interrupted publish once, after its lease; never takes a live one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rpl-recovery-'));
    const store = await openTestStore(engine, dir);
    const desk = new DeskEngine(store);
    const instances = [1, 2, 3].map(() => new DeskEngine(store, { leaseMs: LEASE_MS }));
    const db = deskDbOf(store);
    /** Marks a staged change approved by bob and held by `owner` until `until`, as a publishing instance does. */
    const holdAs = (id: string, owner: string, until: number) =>
      db.run(
        `UPDATE desk_changes SET status = 'approved', lease_owner = ?, lease_until = ?, approval = ? WHERE id = ?`,
        [
          owner,
          new Date(until).toISOString(),
          JSON.stringify({ by: 'bob', via: 'session', comment: 'checked', confirmRemovals: false }),
          id,
        ],
      );
    const recoverAll = () => Promise.all(instances.map((instance) => instance.recover()));
    try {
      const path = writeBranchFile(dir, 'bd.csv', editedBangladesh(1));
      const change = await desk.stage(alice, { kind: 'branches', path, fileName: 'bd.csv' });
      // An instance took the change, swapped the data in and stopped before recording it.
      await holdAs(change.id, 'stopped', Date.now() + 60_000);
      const served = await store.readDataSet();
      const next = await buildChange('branches', readFileSync(path), 'bd.csv', served.dataSet);
      await store.replaceDataSet(next!, {
        expectedVersion: served.version,
        publishing: { changeId: change.id, owner: 'stopped', leaseMs: LEASE_MS },
      });
      const swapped = await store.dataVersion();

      // Its last renewal still runs: nobody takes it.
      const leaseEnds = (at: number) =>
        db.run('UPDATE desk_changes SET lease_until = ? WHERE id = ?', [new Date(at).toISOString(), change.id]);
      await leaseEnds(Date.now() + 60_000);
      await recoverAll();
      expect((await desk.get(change.id)).status).toBe('approved');

      await leaseEnds(Date.now() - 1);
      await recoverAll();
      expect(await desk.get(change.id)).toMatchObject({ status: 'published', decidedBy: 'bob', comment: 'checked' });
      const versions = (await desk.versions({ kind: 'branches', pageNumber: 1, pageSize: 10 })).data;
      expect(versions.filter((v) => v.changeId === change.id)).toMatchObject([
        { dataVersion: swapped, approvedBy: 'bob', restorable: true },
      ]);
      const events = (await desk.audit({ pageNumber: 1, pageSize: 50 })).data.filter((e) => e.target === change.id);
      expect(events.filter((e) => e.action === 'publish')).toMatchObject([
        { actor: 'bob', detail: { recovered: true } },
      ]);
      expect(events.filter((e) => e.action === 'approve')).toHaveLength(1);

      // Another change, held by a live instance: a swap by one that no longer holds it is refused, nothing changed,
      // and no recovery takes it.
      const other = await desk.stage(alice, {
        kind: 'branches',
        path: writeBranchFile(dir, 'bd-2.csv', editedBangladesh(2, 'AGAIN')),
        fileName: 'bd-2.csv',
      });
      await holdAs(other.id, 'alive', Date.now() + 60_000);
      const now = await store.readDataSet();
      const again = await buildChange('branches', readFileSync(join(dir, 'bd-2.csv')), 'bd-2.csv', now.dataSet);
      await expect(
        store.replaceDataSet(again!, {
          expectedVersion: now.version,
          publishing: { changeId: other.id, owner: 'stopped', leaseMs: LEASE_MS },
        }),
      ).rejects.toBeInstanceOf(ChangeNotHeldError);
      expect(await store.dataVersion()).toBe(swapped);
      await recoverAll();
      expect((await desk.get(other.id)).status).toBe('approved');
    } finally {
      for (const instance of [desk, ...instances]) await instance.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("never takes over a change its own process holds, however late the holder's renewal", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rpl-recovery-'));
    const store = await openTestStore(engine, dir);
    // Two serving threads of one process (one lease holder id), and an instance of another process.
    const process = newLeaseOwner();
    const [holder, sibling] = [1, 2].map(() => new DeskEngine(store, { leaseMs: LEASE_MS, leaseOwner: process }));
    const elsewhere = new DeskEngine(store, { leaseMs: LEASE_MS });
    const db = deskDbOf(store);
    try {
      const path = writeBranchFile(dir, 'bd.csv', editedBangladesh(1));
      const change = await holder.stage(alice, { kind: 'branches', path, fileName: 'bd.csv' });
      // The holder publishes; its renewals were held up (SQLite's write lock, a busy core): the lease ran out.
      await db.run(
        `UPDATE desk_changes SET status = 'approved', lease_owner = ?, lease_until = ?, approval = ? WHERE id = ?`,
        [
          process,
          new Date(Date.now() - 1).toISOString(),
          JSON.stringify({ by: 'bob', via: 'session', comment: 'checked', confirmRemovals: false }),
          change.id,
        ],
      );
      await sibling.recover();
      expect(await db.all('SELECT status, lease_owner FROM desk_changes WHERE id = ?', [change.id])).toEqual([
        { status: 'approved', lease_owner: process },
      ]);
      // Another process's recovery sees a holder that stopped: it takes the publish over (released: no swap).
      await elsewhere.recover();
      expect((await holder.get(change.id)).status).toBe('staged');
    } finally {
      for (const instance of [holder, sibling, elsewhere]) await instance.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
