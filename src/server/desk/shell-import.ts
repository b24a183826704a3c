import { userInfo } from 'node:os';
import { basename } from 'node:path';
import type { ChangeKind, ChangeSummary, DiffSummary, StagingProgress } from '../../contract/ops-changes';
import type { FileProblem } from '../importer/file-problem';
import type { LookupStore } from '../store/store';
import { StaleChangeError, WrongStateError, type OpsActor } from './desk';
import { DeskEngine } from './engine';
import { scopeText } from './scope';

// The import command's path (`npm run import`, docs/import.md): the file is staged as any change of the desk
// (read, validated and diffed against what is served, in one pass), then — when it applies — published by the same
// path a checker's approval takes (the file's kept copy built into the new data set and swapped in, a version
// recorded, each record's history, the audit row). The shell user is the change's maker and checker.

export interface ImportOptions {
  /** Validate and diff; change nothing. */
  dryRun?: boolean;
  /** Publish the good rows and report the bad ones, instead of applying nothing. */
  skipInvalid?: boolean;
  /** Publish over the removal guard (more than a fifth of a country's or the kind's rows removed). */
  allowRemovals?: boolean;
  onProgress?: (progress: StagingProgress) => void;
  /** Phase announcements ("Validating …", "Publishing …") for the command's log. */
  onPhase?: (message: string) => void;
  /** Who imports: the shell user by default. */
  actor?: OpsActor;
}

export interface ImportReport {
  kind: ChangeKind;
  file: string;
  sha256: string;
  rowsRead: number;
  rowsValid: number;
  /** Rows with at least one problem. */
  rowsBad: number;
  /** Every problem, by line: bad rows and problems of the file or of the resulting data set. */
  problems: FileProblem[];
  applied: boolean;
  /** What the import replaces (or would replace): "the branches of BD", "all agents". */
  scope: string;
  /** Why nothing was applied, when nothing was. */
  notApplied?: string;
  /** Refused over the removal guard (apply with allowRemovals). */
  overGuard: boolean;
  /** The difference against what was served; null when the file could not be compared. */
  difference: DiffSummary | null;
  /** The data version the difference was computed against. */
  baseVersion: string;
  /** The desk version the import was recorded as (roll back from the desk); null when nothing was applied. */
  version: number | null;
  /** Seconds from the start: `staged` read, validated and diffed; `total` published (or refused). */
  seconds: { staged: number; total: number };
  /** Rows read per second, start to end. */
  rowsPerSecond: number;
}

export const shellActor = (): OpsActor => ({ name: userInfo().username, roles: ['maker', 'checker'], via: 'shell' });

const byLine = (a: FileProblem, b: FileProblem) => (a.line ?? 0) - (b.line ?? 0);

/** Why a staged change is not to be published, or undefined when it is. */
function notAppliedOf(change: ChangeSummary, options: ImportOptions): string | undefined {
  const { rows } = change;
  if (change.status === 'failed') return change.failure ?? 'staging failed';
  if (rows.valid === 0)
    return rows.bad === 0 && change.problemCount > 0 ? 'the file itself has problems' : 'no valid rows';
  if (rows.bad > 0 && !options.skipInvalid)
    return `${rows.bad} bad rows (all or nothing; --skip-invalid applies the good rows)`;
  if (!change.diff) return 'the new data set would leave served data without its references';
  if (options.dryRun) return 'dry run';
  if (change.diff.guard.flagged && !options.allowRemovals) return 'over the removal guard';
  return undefined;
}

export async function importFile(
  store: LookupStore,
  kind: ChangeKind,
  path: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const started = performance.now();
  const since = () => (performance.now() - started) / 1000;
  const actor = options.actor ?? shellActor();
  const fileName = basename(path);
  const desk = new DeskEngine(store);
  let unpublished: string | null = null;
  try {
    options.onPhase?.(`Validating ${fileName} and comparing it with what is served …`);
    const { id, done } = await desk.startStaging(
      actor,
      { kind, path, fileName },
      { skipInvalid: options.skipInvalid, keepIdentical: true, onProgress: options.onProgress },
    );
    unpublished = id;
    const change = await done;
    const problems: FileProblem[] = [];
    for await (const p of desk.allProblems(id))
      problems.push({ line: p.row, column: p.column, reason: p.message, value: p.value, rule: p.rule });
    const report: ImportReport = {
      kind,
      file: fileName,
      sha256: change.sha256,
      rowsRead: change.rows.read,
      rowsValid: change.rows.valid,
      rowsBad: change.rows.bad,
      problems: problems.sort(byLine),
      applied: false,
      scope: scopeText(kind, null, change.countries),
      overGuard: false,
      difference: change.diff,
      baseVersion: change.baseVersion,
      version: null,
      seconds: { staged: since(), total: 0 },
      rowsPerSecond: 0,
    };
    const finish = (notApplied?: string) => {
      report.seconds.total = since();
      report.rowsPerSecond = Math.round(report.rowsRead / Math.max(report.seconds.total, 0.001));
      if (notApplied) report.notApplied = notApplied;
      return report;
    };
    const notApplied = notAppliedOf(change, options);
    if (notApplied) {
      if (notApplied === 'over the removal guard') {
        report.overGuard = true;
        await desk.recordOpsEvent({
          actor: actor.name,
          via: actor.via,
          action: 'import-refused',
          target: fileName,
          detail: { kind, sha256: change.sha256, diff: change.diff!.counts, guard: change.diff!.guard },
        });
      }
      return finish(notApplied);
    }
    options.onPhase?.(`Publishing ${report.scope} …`);
    try {
      await desk.publishFromShell(actor, id, {
        confirmRemovals: options.allowRemovals ?? false,
        skipInvalid: options.skipInvalid,
      });
    } catch (error) {
      // Another change was published since this file was compared: nothing applied, said as a problem (exit 1).
      if (!(error instanceof StaleChangeError || error instanceof WrongStateError)) throw error;
      report.problems.push({ line: null, column: null, reason: `${error.message} (another import committed)` });
      return finish('the served data set changed meanwhile (another import committed)');
    }
    unpublished = null;
    report.applied = true;
    const [version] = (await desk.versions({ kind, pageNumber: 1, pageSize: 1 })).data;
    report.version = version?.id ?? null;
    return finish();
  } finally {
    // A change the command did not publish leaves nothing behind (a dry run, a refusal, a failure).
    if (unpublished) await desk.forget(unpublished);
    await desk.close();
  }
}

/** The import report as people read it: every problem on its own line, then one summary line. */
export function formatReport(report: ImportReport): string {
  const lines = report.problems.map((p) => `${report.file}:${p.line ?? '-'} ${p.column ?? '(row)'}: ${p.reason}`);
  const outcome = report.applied
    ? `applied: replaced ${report.scope}`
    : `NOT applied (${report.notApplied ?? 'no changes'}); the served data is unchanged`;
  const s = report.seconds;
  lines.push(
    `${report.kind} ${report.file}: ${report.rowsRead} rows read, ${report.rowsValid} valid, ${report.rowsBad} bad; ${outcome}. ` +
      `${s.total.toFixed(2)} s (staged at ${s.staged.toFixed(2)}), ${report.rowsPerSecond} rows/s. sha256 ${report.sha256}`,
  );
  return lines.join('\n');
}
