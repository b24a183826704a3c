import { randomUUID } from 'node:crypto';
import type { ChangeKind } from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';
import type { DeskContext } from './context';
import type { OpsActor } from './desk';
import type { StagedChange } from './prepare';
import { keepBaseline, versionContentOf } from './publish';
import { recordHistoryOf } from './record-history';
import { stagedCounts } from './repositories/changes';
import { now } from './repositories/rows';
import { stage } from './stage-in-worker';
import { withCountedRemovals } from './staging';

// The import command's path through the desk (DeskEngine.prepareFromShell says what it promises).

/** Diffs the file against what is served, its difference's entries kept under the id the import will have. */
export async function prepareFromShell(
  ctx: DeskContext,
  kind: ChangeKind,
  path: string,
  fileName: string,
  options: { skipInvalid?: boolean },
) {
  const { dataSet, version } = await ctx.store.readDataSet();
  const served = { dataSet, version };
  // The difference's entries are kept under the change id the import will be recorded with (the records'
  // history reads them); forgetShellImport drops them when nothing is applied.
  const id = randomUUID();
  const prepared = await stage({
    kind,
    source: path,
    fileName,
    served,
    bytes: 0,
    inWorker: false,
    options,
    onRows: ctx.findings.diffWriter(id),
  });
  if (prepared.diff) await withCountedRemovals(ctx, kind, prepared.diff);
  else await ctx.findings.dropDiff(id);
  return { id, prepared, served: dataSet, version };
}

/**
 * Records what the import command published (it wrote through the importer, importFile): a published change,
 * a version with its snapshot (rollback-able from the desk) and the audit row.
 */
export async function recordShellImport(
  ctx: DeskContext,
  actor: OpsActor,
  id: string,
  prepared: StagedChange,
  kind: ChangeKind,
  served: DataSet,
  baseVersion: string,
): Promise<number> {
  const { store, versions } = ctx;
  const at = now();
  const next = (await store.readDataSet()).dataSet;
  const dataVersion = await store.dataVersion();
  await ctx.changes.insertPublished({
    ...stagedCounts(prepared, baseVersion),
    id,
    kind,
    fileName: prepared.fileName,
    actor,
    at,
  });
  await keepBaseline(store, kind, served, id, at);
  // Applied over the guard only with --allow-removals: its removals were confirmed.
  const ledger =
    prepared.diff &&
    (await versions.ledgerAfter(
      kind,
      prepared.diff.summary,
      prepared.diff.served,
      prepared.diff.summary.guard.flagged,
      at,
    ));
  const versionId = await versions.record(
    {
      id,
      kind,
      stagedBy: actor.name,
      fileName: prepared.fileName,
      sha256: prepared.sha256,
      countries: prepared.countries,
      diff: prepared.diff?.summary ?? null,
    },
    actor.name,
    await versionContentOf(store, kind, next, id),
    dataVersion,
    at,
    ledger,
  );
  await recordHistoryOf(ctx.db, kind, versionId, id);
  await ctx.audit.record({
    actor: actor.name,
    via: actor.via,
    action: 'import',
    target: id,
    detail: {
      kind,
      fileName: prepared.fileName,
      version: versionId,
      dataVersion,
      diff: prepared.diff?.summary.counts ?? null,
    },
  });
  return versionId;
}
