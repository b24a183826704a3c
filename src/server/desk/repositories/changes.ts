import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type {
  ChangeKind,
  ChangeStatus,
  ChangeSummary,
  ChangesQuery,
  DiffSummary,
  OpsPage,
  StagingProgress,
} from '../../../contract/ops-changes';
import type { DeskDb, Row } from '../db';
import { WrongStateError, NotFoundError, type OpsActor } from '../desk';
import { KEEP_FILE_SQL } from '../kept-file';
import { INTERRUPTED_STAGING, type Leases } from '../recovery';
import type { StagedChange } from '../prepare';
import type { StoredScope } from '../scope';
import { Where, changeSummaryOf, now, pageOf } from './rows';

// The changes (desk_changes) with their kept files (desk_files): read, listed, moved from one status to another,
// and held through their lease columns (recovery.ts) while an engine stages or publishes them.

const gunzip = promisify(gunzipCallback);

/** What a file read and compared to what is served came to, as its change keeps it. */
export interface StagedCounts {
  countries: string[];
  sha256: string;
  rowsRead: number;
  rowsValid: number;
  rowsBad: number;
  problemCount: number;
  summary: string | null;
  byBank: string | null;
  baseVersion: string;
}

export const stagedCounts = (staged: StagedChange, baseVersion: string): StagedCounts => ({
  countries: staged.countries,
  sha256: staged.sha256,
  rowsRead: staged.rowsRead,
  rowsValid: staged.rowsValid,
  rowsBad: staged.rowsBad,
  problemCount: staged.problems.length,
  summary: staged.diff ? JSON.stringify(staged.diff.summary) : null,
  byBank: staged.diff ? JSON.stringify(staged.diff.byBank) : null,
  baseVersion,
});

/** What a staging found, kept on its change when it is staged (or failed: identical to what is served). */
export interface StagedColumns extends StagedCounts {
  status: 'staged' | 'failed';
  failure: string | null;
  ruleCounts: string;
  servedRows: string | null;
}

/** A change's lease ran out (or it has none) by `cutoff`: it may be taken over. */
const EXPIRED = `id = ? AND status = ? AND (lease_until IS NULL OR lease_until < ?)`;

export class ChangesRepository {
  constructor(
    private readonly db: DeskDb,
    private readonly leases: Leases,
    /** How long a staged change may stay untouched before it expires. */
    readonly ttlMs: number,
  ) {}

  async row(id: string): Promise<Row> {
    const [row] = await this.db.all(
      `SELECT id, kind, status, countries, file_name, sha256, rows_read, rows_valid, rows_bad, problem_count, summary,
         by_bank, rule_counts, base_version, rollback_of, staged_by, staged_via, staged_at, updated_at, decided_by,
         decided_at, comment, progress, failure, served_rows, approval, scope FROM desk_changes WHERE id = ?`,
      [id],
    );
    if (!row) throw new NotFoundError(`change ${id}`);
    return row;
  }

  summary(row: Row, servedVersion: string): ChangeSummary {
    return changeSummaryOf(row, servedVersion, this.ttlMs);
  }

  async page(query: ChangesQuery, servedVersion: string): Promise<OpsPage<ChangeSummary>> {
    const where = new Where();
    if (query.status === 'pending') where.and(`status = 'staged'`);
    else if (query.status === 'stale' || query.status === 'staged')
      where.and(`status = 'staged' AND base_version ${query.status === 'stale' ? '<>' : '='} ?`, servedVersion);
    else if (query.status) where.and('status = ?', query.status);
    if (query.kind) where.and('kind = ?', query.kind);
    if (query.stagedBy) where.and('staged_by = ?', query.stagedBy);
    const select = `id, kind, status, countries, file_name, sha256, rows_read, rows_valid, rows_bad, problem_count, summary,
      NULL AS by_bank, NULL AS rule_counts, base_version, rollback_of, staged_by, staged_via, staged_at, updated_at,
      decided_by, decided_at, comment, progress, failure, scope`;
    return pageOf(this.db, { select, from: 'desk_changes', where, order: 'staged_at DESC, id' }, query, (row) =>
      this.summary(row, servedVersion),
    );
  }

  // ---------------------------------------------------------------------------------------------------------
  // Staging

  /** Records a change being staged (status validating), held by this engine. */
  async insertValidating(change: {
    id: string;
    kind: ChangeKind;
    fileName: string;
    sha256: string | undefined;
    rollbackOf: number | null;
    actor: OpsActor;
    uploadPath: string | null;
    scope: StoredScope | null | undefined;
  }): Promise<void> {
    const at = now();
    const lease = this.leases.columns();
    await this.db.run(
      `INSERT INTO desk_changes (id, kind, status, file_name, sha256, rollback_of, staged_by, staged_via, staged_at, updated_at,
         progress, lease_owner, lease_until, upload_path, scope)
       VALUES (?, ?, 'validating', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        change.id,
        change.kind,
        change.fileName,
        change.sha256 ?? '',
        change.rollbackOf,
        change.actor.name,
        change.actor.via,
        at,
        at,
        JSON.stringify({ phase: 'reading', done: 0, total: 0 }),
        lease.lease_owner,
        lease.lease_until,
        change.uploadPath,
        change.scope ? JSON.stringify(change.scope) : null,
      ],
    );
  }

  /** A staging this engine holds failed. */
  async failStaging(id: string, message: string): Promise<void> {
    await this.db.run(
      `UPDATE desk_changes SET status = 'failed', failure = ?, progress = NULL, lease_owner = NULL, lease_until = NULL,
         updated_at = ? WHERE id = ? AND status = 'validating' AND lease_owner = ?`,
      [message, now(), id, this.leases.owner],
    );
  }

  async saveProgress(id: string, progress: StagingProgress): Promise<void> {
    await this.db.run(`UPDATE desk_changes SET progress = ? WHERE id = ? AND status = 'validating'`, [
      JSON.stringify(progress),
      id,
    ]);
  }

  /**
   * Marks a change staged (or failed) with what its staging found, by its holder only (a staging, a re-diff on
   * approval or after an interrupted publish); false when this engine no longer holds it.
   */
  async saveStaged(id: string, staged: StagedColumns): Promise<boolean> {
    const saved = await this.db.run(
      `UPDATE desk_changes SET status = ?, failure = ?, countries = ?, sha256 = ?, rows_read = ?, rows_valid = ?, rows_bad = ?,
         problem_count = ?, summary = ?, by_bank = ?, rule_counts = ?, base_version = ?, served_rows = ?, progress = NULL,
         updated_at = ?, lease_owner = NULL, lease_until = NULL, approval = NULL
       WHERE id = ? AND status IN ('validating', 'approved') AND lease_owner = ?`,
      [
        staged.status,
        staged.failure,
        staged.countries.join(' '),
        staged.sha256,
        staged.rowsRead,
        staged.rowsValid,
        staged.rowsBad,
        staged.problemCount,
        staged.summary,
        staged.byBank,
        staged.ruleCounts,
        staged.baseVersion,
        staged.servedRows,
        now(),
        id,
        this.leases.owner,
      ],
    );
    return saved === 1;
  }

  /** Keeps the change's file, gzip-compressed. */
  async keepFile(id: string, gz: Buffer): Promise<void> {
    await this.db.run(KEEP_FILE_SQL, [id, gz]);
  }

  async keptGzip(id: string): Promise<Buffer> {
    const [row] = await this.db.all('SELECT file_gz FROM desk_files WHERE change_id = ?', [id]);
    if (!row?.file_gz) throw new WrongStateError('the change has no file kept');
    return row.file_gz as Buffer;
  }

  async file(id: string): Promise<Buffer> {
    return gunzip(await this.keptGzip(id));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Decisions

  /**
   * Moves the change from one of `from` to `to`; false when another caller moved it first (or, with `held`, when
   * this engine no longer holds it).
   */
  async transition(
    id: string,
    from: ChangeStatus[],
    to: ChangeStatus,
    set: Record<string, unknown> = {},
    { held = false, db = this.db }: { held?: boolean; db?: DeskDb } = {},
  ) {
    const columns = Object.keys(set);
    const changed = await db.run(
      `UPDATE desk_changes SET status = ?, updated_at = ?${columns.map((c) => `, ${c} = ?`).join('')}
       WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})${held ? ' AND lease_owner = ?' : ''}`,
      [to, now(), ...columns.map((c) => set[c]), id, ...from, ...(held ? [this.leases.owner] : [])],
    );
    return changed === 1;
  }

  /** Puts a change this engine holds back from approved to staged (a publish that did not swap). */
  release(id: string) {
    return this.transition(
      id,
      ['approved'],
      'staged',
      { lease_owner: null, lease_until: null, approval: null },
      { held: true },
    );
  }

  async saveSummary(id: string, summary: DiffSummary): Promise<void> {
    await this.db.run('UPDATE desk_changes SET summary = ? WHERE id = ?', [JSON.stringify(summary), id]);
  }

  /** The staged changes untouched since `cutoff`. */
  async untouchedSince(cutoff: string): Promise<string[]> {
    const rows = await this.db.all(`SELECT id FROM desk_changes WHERE status = 'staged' AND updated_at < ?`, [cutoff]);
    return rows.map(({ id }) => String(id));
  }

  /** Deletes a change and everything kept of it (the import command's change it did not publish). */
  async forget(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const table of [
        'desk_problems',
        'desk_diff',
        'desk_change_quality',
        'desk_change_comments',
        'desk_files',
        'desk_originals',
      ])
        await tx.run(`DELETE FROM ${table} WHERE change_id = ?`, [id]);
      await tx.run('DELETE FROM desk_changes WHERE id = ?', [id]);
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Recovery (recovery.ts)

  /** The changes left validating or approved by an engine whose lease ran out by `cutoff`. */
  async stopped(cutoff: string): Promise<Row[]> {
    // Not a change this process holds: another of its threads works on it, however late its renewal.
    return this.db.all(
      `SELECT id, status, upload_path FROM desk_changes
       WHERE status IN ('validating', 'approved') AND (lease_until IS NULL OR lease_until < ?)
         AND (lease_owner IS NULL OR lease_owner <> ?)`,
      [cutoff, this.leases.owner],
    );
  }

  /** Marks an interrupted staging failed, if no other instance took it first; true when this call did. */
  async failInterrupted(tx: DeskDb, id: string, cutoff: string): Promise<boolean> {
    const taken = await tx.run(
      `UPDATE desk_changes SET status = 'failed', failure = ?, progress = NULL, lease_owner = NULL,
         lease_until = NULL, updated_at = ? WHERE ${EXPIRED}`,
      [INTERRUPTED_STAGING, now(), id, 'validating', cutoff],
    );
    return taken === 1;
  }

  /** Takes an interrupted publish over (its lease to this engine), if no other instance took it first. */
  async claimInterrupted(id: string, cutoff: string): Promise<boolean> {
    const { lease_owner, lease_until } = this.leases.columns();
    const taken = await this.db.runNoWait(`UPDATE desk_changes SET lease_owner = ?, lease_until = ? WHERE ${EXPIRED}`, [
      lease_owner,
      lease_until,
      id,
      'approved',
      cutoff,
    ]);
    return taken === 1;
  }
}
