import { promisify } from 'node:util';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzip as gzipCallback } from 'node:zlib';
import type { ChangeKind, RuleCount } from '../../contract/ops-changes';
import { IDENTICAL_TO_SERVED } from '../../contract/ops-flow';
import { isIdentical } from './change-flow';
import type { DeskContext } from './context';
import { WrongStateError, type StageOptions } from './desk';
import { removalGuard, type Difference } from './diff';
import type { StageOptions as StagingOptions, StagedChange } from './prepare';
import { crashPoint } from './recovery';
import { stagedCounts } from './repositories/changes';
import { saveChangeQuality } from './staged-quality';
import { stage, type ServedInput, type StagedAgainst } from './stage-in-worker';
import { keepOriginal } from './version-files';

// The staging path: a change's file staged against the served data (stage-in-worker.ts) and what it found kept
// on the change — its problems, its difference's entries, its report and its file — by the engine holding it.

const gzip = promisify(gzipCallback);

/** A staged difference's guard, with the removals earlier versions made counted in. */
export async function withCountedRemovals(ctx: DeskContext, kind: ChangeKind, diff: Difference): Promise<void> {
  diff.summary.guard = removalGuard(diff.summary, diff.served, await ctx.versions.countedRemovals(kind));
}

/** Stages a new change's file, its progress kept on the change for a poll from any instance. */
export async function prepareAndSave(
  ctx: DeskContext,
  id: string,
  kind: ChangeKind,
  source: string | Uint8Array,
  fileName: string,
  options: StageOptions,
): Promise<void> {
  let lastWrite = 0;
  const staged = await stageAndSave(ctx, id, kind, source, fileName, ctx.store, true, {
    reading: options.reading,
    maxUnpackedBytes: options.maxUnpackedBytes,
    scope: options.scope,
    skipInvalid: options.skipInvalid,
    keepIdentical: options.keepIdentical,
    onProgress: (progress, keptOnTheChange) => {
      options.onProgress?.(progress);
      // Kept on the change at most twice a second, for a poll from any instance (by the staging worker
      // itself where it writes to a SQLite store).
      if (keptOnTheChange || Date.now() - lastWrite < 500) return;
      lastWrite = Date.now();
      void ctx.changes.saveProgress(id, progress).catch(() => {});
    },
  });
  options.onProgress?.({ phase: 'done', done: staged.rowsRead, total: staged.rowsRead });
}

/** The kept copy of a staged file, gzip-compressed (a file on disk streamed through gzip). */
async function keptGzip(staged: StagedChange): Promise<Buffer> {
  if ('bytes' in staged.kept) return gzip(staged.kept.bytes);
  const chunks: Buffer[] = [];
  await pipeline(createReadStream(staged.kept.path), createGzip(), async (compressed) => {
    for await (const chunk of compressed) chunks.push(chunk as Buffer);
  });
  return Buffer.concat(chunks);
}

/**
 * Stages a change's file against the served data (stage-in-worker.ts) and keeps what it found: its
 * difference's entries written as they come (replacing any earlier ones), then its report, and marks it staged.
 */
export async function stageAndSave(
  ctx: DeskContext,
  id: string,
  kind: ChangeKind,
  source: string | Uint8Array,
  fileName: string,
  served: ServedInput,
  /** Keep the file (a first staging; a re-diff reads the copy kept), before the change can be approved. */
  keepFile: boolean,
  options: Omit<StagingOptions, 'onEntries'> = {},
): Promise<StagedAgainst> {
  const { store, findings, changes } = ctx;
  await findings.dropProblems(id);
  await findings.dropDiff(id);
  const staged = await stage({
    kind,
    source,
    fileName,
    served,
    bytes: typeof source === 'string' ? (await stat(source)).size : source.byteLength,
    inWorker: ctx.options.stageInWorker,
    heapMb: ctx.options.stageHeapMb,
    keepFile,
    writeToSqlite: store.source?.engine === 'sqlite' ? { file: store.source.file, changeId: id } : undefined,
    options,
    onRows: findings.diffWriter(id),
  });
  // A file refused (bad rows, broken references) keeps no difference.
  if (!staged.diff) await findings.dropDiff(id);
  else await withCountedRemovals(ctx, kind, staged.diff);
  await saveChangeQuality(ctx.db, id, staged.quality);
  options.onProgress?.({ phase: 'saving', done: 0, total: staged.problems.length });
  await findings.saveProblems(id, staged.problems);
  const rules = new Map<string, RuleCount>();
  for (const p of staged.problems) {
    const counted = rules.get(p.rule) ?? { rule: p.rule, column: p.column, count: 0 };
    counted.count++;
    rules.set(p.rule, counted);
  }
  const ruleCounts = [...rules.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
  if (keepFile && staged.keptGz !== 'written')
    await changes.keepFile(
      id,
      staged.keptGz
        ? Buffer.from(staged.keptGz.buffer, staged.keptGz.byteOffset, staged.keptGz.byteLength)
        : await keptGzip(staged),
    );
  if (keepFile) await keepOriginal(ctx.db, id, source, staged.kept);
  crashPoint('staging-saving');
  // Staged by its holder only (a staging, a re-diff on approval or after an interrupted publish); a file
  // identical to what is served is refused (failed, with the reason): nothing to publish.
  const identical = isIdentical(staged) && !options.keepIdentical;
  const saved = await changes.saveStaged(id, {
    ...stagedCounts(staged, staged.baseVersion),
    status: identical ? 'failed' : 'staged',
    failure: identical ? IDENTICAL_TO_SERVED : null,
    ruleCounts: JSON.stringify(ruleCounts),
    servedRows: staged.diff ? JSON.stringify(staged.diff.served) : null,
  });
  if (!saved) throw new WrongStateError('the change was taken over by another instance meanwhile');
  return staged;
}
