import type {
  ChangeKind,
  ChangeSummary,
  DiffSummary,
  OpsPage,
  VersionSummary,
  VersionsQuery,
} from '../../../contract/ops-changes';
import type { DeskDb, Row } from '../db';
import type { RemovalHistory } from '../diff';
import { insertVersion, type VersionContent } from '../publish';
import { ORPHAN_SNAPSHOTS_SQL } from '../recovery';
import { nextLedger, removalHistory, type RemovalLedger } from '../removal-ledger';
import { pruneOriginals } from '../version-files';
import { Where, json, pageOf, versionOf } from './rows';

// The published versions (desk_versions) with their snapshots (desk_snapshots), the data swaps publishes
// committed (desk_swaps), and the removal guard's ledger each version keeps (removal-ledger.ts).

export class VersionsRepository {
  constructor(
    private readonly db: DeskDb,
    /** Versions kept per kind, with their snapshots. */
    private readonly versionsKept: number,
  ) {}

  /** Records a published version with its kind's snapshot; versions past the retention go, with their snapshots. */
  async record(
    change: Pick<ChangeSummary, 'id' | 'kind' | 'stagedBy' | 'fileName' | 'sha256' | 'countries' | 'diff'>,
    approvedBy: string,
    next: VersionContent,
    dataVersion: string,
    at: string,
    /** The removal guard's ledger after this publish (removal-ledger.ts). */
    ledger: RemovalLedger | null,
    db = this.db,
  ): Promise<number> {
    const kind = change.kind;
    const id = await insertVersion(db, {
      kind,
      changeId: change.id,
      stagedBy: change.stagedBy,
      approvedBy,
      publishedAt: at,
      fileName: change.fileName,
      sha256: change.sha256,
      rows: next.rows,
      countries: change.countries,
      diff: change.diff,
      dataVersion,
      snapshotId: next.snapshotId,
      ledger,
    });
    // Past the retention: the versions, then their snapshots (which they point at).
    const beyond = `FROM desk_versions WHERE kind = ? AND id NOT IN
      (SELECT id FROM (SELECT id FROM desk_versions WHERE kind = ? ORDER BY id DESC LIMIT ?) AS kept)`;
    const params = [kind, kind, this.versionsKept];
    const snapshots = (await db.all(`SELECT snapshot_id ${beyond} AND snapshot_id IS NOT NULL`, params)).map(
      (r) => r.snapshot_id,
    );
    await pruneOriginals(db, beyond, params);
    await db.run(`DELETE ${beyond}`, params);
    if (snapshots.length > 0)
      await db.run(`DELETE FROM desk_snapshots WHERE id IN (${snapshots.map(() => '?').join(', ')})`, snapshots);
    return id;
  }

  async page(query: VersionsQuery): Promise<OpsPage<VersionSummary>> {
    const where = new Where();
    if (query.kind) where.and('kind = ?', query.kind);
    const select = `id, kind, change_id, staged_by, approved_by, published_at, file_name, sha256, rows, countries, summary,
      data_version, snapshot_id IS NOT NULL AS restorable,
      (SELECT rollback_of FROM desk_changes c WHERE c.id = change_id) AS rollback_of`;
    return pageOf(this.db, { select, from: 'desk_versions', where, order: 'id DESC' }, query, versionOf);
  }

  /** A version's kind, file name and snapshot (gzip-compressed; absent when none is kept); undefined: no version. */
  async withSnapshot(versionId: number): Promise<Row | undefined> {
    const [version] = await this.db.all(
      `SELECT v.id, v.kind, v.file_name, s.snapshot_gz FROM desk_versions v
         LEFT JOIN desk_snapshots s ON s.id = v.snapshot_id WHERE v.id = ?`,
      [versionId],
    );
    return version;
  }

  /** The data swap a change's publish committed, if it did. */
  async swapOf(changeId: string): Promise<Row | undefined> {
    const [swap] = await this.db.all('SELECT data_version FROM desk_swaps WHERE change_id = ?', [changeId]);
    return swap;
  }

  /** What a stopped publish kept without a version (a snapshot made after its swap, say). */
  async dropOrphanSnapshots(changeId: string): Promise<void> {
    await this.db.run(ORPHAN_SNAPSHOTS_SQL, [changeId]);
  }

  async dropSnapshot(id: number): Promise<void> {
    await this.db.run('DELETE FROM desk_snapshots WHERE id = ?', [id]);
  }

  // The removal guard across changes (removal-ledger.ts)

  /** The ledger of the kind's latest version (it holds all the guard needs). */
  private async latestLedger(kind: ChangeKind): Promise<RemovalLedger> {
    const [row] = await this.db.all(
      'SELECT removal_ledger FROM desk_versions WHERE kind = ? AND removal_ledger IS NOT NULL ORDER BY id DESC LIMIT 1',
      [kind],
    );
    return json<RemovalLedger>(row?.removal_ledger) ?? {};
  }

  async countedRemovals(kind: ChangeKind): Promise<RemovalHistory> {
    return removalHistory(await this.latestLedger(kind));
  }

  /** The kind's ledger once this change is published at `at` (`confirmed`: its guard flags were confirmed). */
  async ledgerAfter(
    kind: ChangeKind,
    summary: DiffSummary,
    served: Record<string, number>,
    confirmed: boolean,
    at: string,
  ): Promise<RemovalLedger> {
    return nextLedger(await this.latestLedger(kind), { summary, served }, confirmed && summary.guard.flagged, at);
  }
}
