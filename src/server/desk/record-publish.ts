import type { DeskContext } from './context';
import type { VersionContent } from './publish';
import { recordHistoryOf } from './record-history';
import { json, now, type Approval } from './repositories/rows';

/**
 * Records a publish whose data swap committed, in one transaction: the change published, its version (pointing
 * at `next`'s snapshot) and the approve and publish events — only while this engine holds the change. The
 * version id, or null when it does not hold it (another instance recorded it).
 */
export async function recordPublish(
  ctx: DeskContext,
  id: string,
  next: VersionContent,
  recovered: boolean,
): Promise<number | null> {
  const { changes, versions, audit } = ctx;
  const row = await changes.row(id);
  const summary = changes.summary(row, String(row.base_version));
  const approval = json<Approval>(row.approval) ?? {
    by: 'unknown',
    via: 'unknown',
    comment: '',
    confirmRemovals: false,
  };
  const swap = await versions.swapOf(id);
  const dataVersion = String(swap?.data_version ?? (await ctx.store.dataVersion()));
  const at = now();
  const marked = recovered ? { recovered: true } : {};
  const served = json<Record<string, number>>(row.served_rows);
  const ledger =
    served && (await versions.ledgerAfter(summary.kind, summary.diff!, served, approval.confirmRemovals, at));
  return ctx.db.transaction(async (tx) => {
    const decided = { decided_by: approval.by, decided_at: at, comment: approval.comment || null };
    const published = { ...decided, lease_owner: null, lease_until: null, approval: null };
    if (!(await changes.transition(id, ['approved'], 'published', published, { held: true, db: tx }))) return null;
    const versionId = await versions.record(summary, approval.by, next, dataVersion, at, ledger, tx);
    await recordHistoryOf(tx, summary.kind, versionId, id);
    const actor = { actor: approval.by, via: approval.via, target: id };
    const { comment, confirmRemovals } = approval;
    const { kind, fileName } = summary;
    const detail = { version: versionId, kind, fileName, dataVersion, diff: summary.diff!.counts, ...marked };
    // The import command's publish is one event (its user staged and approved it); a checker's, two.
    if (approval.via === 'shell') await audit.record({ ...actor, action: 'import', detail }, tx);
    else {
      await audit.record({ ...actor, action: 'approve', detail: { comment, confirmRemovals, ...marked } }, tx);
      await audit.record({ ...actor, action: 'publish', detail }, tx);
    }
    return versionId;
  });
}
