import type { ChangeKind } from '../../contract/ops-changes';
import type { DeskContext } from './context';
import { versionContentOf } from './publish';
import { recordPublish } from './record-publish';
import { removeUpload, sweepUploads } from './recovery';
import { SYSTEM } from './repositories/audit';
import { json, now, type Approval } from './repositories/rows';
import type { StoredScope } from './scope';
import { stageAndSave } from './staging';

// A recovery's pass (recovery.ts says what it promises): the changes a stopped engine left half done taken over.

/**
 * Takes over each change left validating or approved by an engine whose lease ran out: a staging becomes
 * failed (its upload removed); a publish is completed if its data swap committed, else released to staged.
 * Then removes the uploads no staging reads.
 */
export async function recoverStopped(ctx: DeskContext): Promise<void> {
  const cutoff = now();
  const stopped = await ctx.changes.stopped(cutoff);
  for (const row of stopped) {
    const id = String(row.id);
    // One change failing to recover (a database error) leaves the others and the uploads to this pass.
    await takeOver(ctx, id, String(row.status), row.upload_path, cutoff).catch((error: Error) =>
      ctx.options.log?.(`desk recovery of change ${id} failed: ${error.stack ?? error.message}`),
    );
  }
  if (ctx.options.uploads) await sweepUploads(ctx.db, ctx.options.uploads);
}

/** Takes an interrupted staging or publish over, if no other instance took it first (one UPDATE, lease out). */
async function takeOver(
  ctx: DeskContext,
  id: string,
  status: string,
  uploadPath: unknown,
  cutoff: string,
): Promise<void> {
  const { changes, audit, leases, options } = ctx;
  if (status === 'validating') {
    const failed = await ctx.db.transaction(async (tx) => {
      const taken = await changes.failInterrupted(tx, id, cutoff);
      if (taken) await audit.record({ ...SYSTEM, actor: SYSTEM.name, action: 'stage-interrupted', target: id }, tx);
      return taken;
    });
    if (!failed) return;
    await removeUpload(options.uploads, uploadPath);
    options.log?.(`change ${id}: its staging was interrupted; marked failed`);
    return;
  }
  if (!(await changes.claimInterrupted(id, cutoff))) return;
  leases.hold(id);
  try {
    await recoverPublish(ctx, id);
  } finally {
    leases.letGo(id);
  }
}

/** An interrupted publish this engine has taken over: completed if its swap committed, else released. */
async function recoverPublish(ctx: DeskContext, id: string): Promise<void> {
  const { store, changes, versions, options } = ctx;
  // What the stopped publish kept without a version (a snapshot made after its swap, say).
  await versions.dropOrphanSnapshots(id);
  const swap = await versions.swapOf(id);
  const row = await changes.row(id);
  const kind = row.kind as ChangeKind;
  if (swap) {
    // The change's data is served: its version is made from what is served.
    const { dataSet } = await store.readDataSet();
    const next = await versionContentOf(store, kind, dataSet, id);
    const versionId = await recordPublish(ctx, id, next, true);
    if (versionId === null) await versions.dropSnapshot(next.snapshotId);
    options.log?.(`change ${id}: its publish was interrupted after the data swap; recorded as version ${versionId}`);
    return;
  }
  const servedVersion = await store.dataVersion();
  // Said first, while this engine holds the change: a crash before the release repeats it, never loses it.
  await ctx.audit.record({
    ...SYSTEM,
    actor: SYSTEM.name,
    action: 'publish-interrupted',
    target: id,
    detail: {
      approvedBy: json<Approval>(row.approval)?.by ?? null,
      released: true,
      diffedFrom: row.base_version,
      servedVersion,
    },
  });
  if (row.base_version !== servedVersion) {
    // Diffed again against what is served (stageAndSave marks it staged), as an approval of a stale change is.
    try {
      await stageAndSave(ctx, id, kind, await changes.file(id), String(row.file_name), store, false, {
        scope: json<StoredScope>(row.scope),
      });
    } catch (error) {
      options.log?.(`change ${id}: diffing it again failed: ${(error as Error).message}`);
    }
  }
  await changes.release(id);
  options.log?.(`change ${id}: its publish was interrupted before the data swap; staged again`);
}
