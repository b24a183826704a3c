import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzip as gzipCallback, gunzip as gunzipCallback } from 'node:zlib';
import type {
  ApproveBody,
  AuditEntry,
  AuditQuery,
  ChangeDetail,
  ChangeKind,
  ChangeStatus,
  ChangeSummary,
  ChangesQuery,
  DiffEntry,
  DiffQuery,
  DiffSummary,
  GroupCounts,
  OpsPage,
  ProblemsQuery,
  RejectBody,
  RuleCount,
  StagingProgress,
  ValidationProblem,
  VersionSummary,
  VersionsQuery,
} from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';
import type { LookupStore } from '../store/store';
import { deskDbOf, type DeskDb, type Row } from './db';
import { DIFF_COLUMNS, describeGuard, removalGuard, type Difference, type RemovalHistory } from './diff';
import { nextLedger, removalHistory, type RemovalLedger } from './removal-ledger';
import { DIFF_ENTRY_COLUMNS, diffEntryOfRow, diffSearch } from './diff-rows';
import { saveChangeQuality } from './staged-quality';
import { type StageOptions as StagingOptions, type StagedChange } from './prepare';
import { KEEP_FILE_SQL } from './kept-file';
import { recordHistoryOf } from './record-history';
import { shownScope, type StoredScope } from './scope';
import { untouchedCountries } from './kept-sources';
import { keepOriginal, pruneOriginals } from './version-files';
import { isIdentical } from './change-flow';
import { IDENTICAL_TO_SERVED } from '../../contract/ops-flow';
import {
  PUBLISH_IN_WORKER_FROM_GZ_BYTES,
  insertVersion,
  keepBaseline,
  publishChange,
  versionContentOf,
  type VersionContent,
} from './publish';
import {
  DEFAULT_LEASE_MS,
  INTERRUPTED_STAGING,
  Leases,
  ORPHAN_SNAPSHOTS_SQL,
  crashPoint,
  removeUpload,
  sweepUploads,
  type UploadsFolder,
} from './recovery';
import { stage, type ServedInput, type StagedAgainst } from './stage-in-worker';
import {
  DeskError,
  NotFoundError,
  RemovalsNotConfirmedError,
  RoleRequiredError,
  StaleChangeError,
  WrongStateError,
  checkFourEyes,
  hasRole,
  isPerson,
  type ChangeDesk,
  type OpsActor,
  type OpsEvent,
  type StageInput,
  type StageOptions,
  type StartedStaging,
} from './desk';

// The desk's engine (desk.ts says what it promises). Everything it keeps is in the store's database: the change
// with a gzip copy of its file, its problems and difference entries, the versions with their snapshots, and the
// audit trail. Approval rebuilds the data set from the kept file against the data version it was diffed from
// and publishes it through the store's replaceDataSet with that version expected, so a change is published as
// the checker saw it or not at all.

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

export interface DeskOptions {
  /** Hours a staged change may stay untouched before it expires (DESK_CHANGE_TTL_HOURS). */
  changeTtlHours?: number;
  /** Versions kept per kind, with their snapshots (DESK_VERSIONS_KEPT). */
  versionsKept?: number;
  /**
   * Called after a publish commits: the app brings this instance's search index to the new data version, so
   * that "published" means a teller's search here finds it. Waited for at most PUBLISH_CATCH_UP_MS; past it the
   * change is published all the same and the index swaps in when built (other instances: at their next check).
   */
  onPublished?: () => void | Promise<void>;
  /** Where to stage a file: a worker thread (true), this thread (false); absent: a worker from 4 MB. */
  stageInWorker?: boolean;
  /** The staging worker's heap limit in MB (OPS_STAGE_HEAP_MB, default 768). */
  stageHeapMb?: number;
  /** How long a change this engine stages or publishes stays held without a renewal (DESK_LEASE_SECONDS). */
  leaseMs?: number;
  /** The holder id of this engine's process (recovery.ts): its serving threads' engines share it. */
  leaseOwner?: string;
  /**
   * Recover what a stopped instance left (recovery.ts) from startRecovery() on; removes the uploads left over in
   * this folder (DATA_DIR/uploads).
   */
  uploads?: UploadsFolder;
  log?: (message: string) => void;
}

/** The approval being published, kept on the change while it is approved (a recovery records it). */
interface Approval {
  by: string;
  via: string;
  comment: string;
  confirmRemovals: boolean;
}

const SYSTEM = { name: 'system', via: 'system' } as const;
/** The longest an approval waits for this instance's search index to serve what it published. */
const PUBLISH_CATCH_UP_MS = 60_000;
const now = () => new Date().toISOString();
const json = <T>(value: unknown): T | null => (typeof value === 'string' && value ? (JSON.parse(value) as T) : null);
const page = <T>(data: T[], totalItems: number, pageNumber: number, pageSize: number): OpsPage<T> => ({
  data,
  pagination: { pageNumber, pageSize, totalItems, totalPages: Math.ceil(totalItems / pageSize) },
});

export class DeskEngine implements ChangeDesk {
  private readonly db: DeskDb;
  private readonly ttlMs: number;
  private readonly versionsKept: number;
  private readonly running = new Set<Promise<unknown>>();
  private readonly leases: Leases;
  private recovery: { timer: NodeJS.Timeout; pass: Promise<void> | undefined } | undefined;

  constructor(
    readonly store: LookupStore,
    private readonly options: DeskOptions = {},
  ) {
    this.db = deskDbOf(store);
    this.ttlMs = (options.changeTtlHours ?? 168) * 3_600_000;
    this.versionsKept = options.versionsKept ?? 10;
    this.leases = new Leases(this.db, options.leaseMs ?? DEFAULT_LEASE_MS, options.leaseOwner, options.log);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Staging

  async stage(actor: OpsActor, input: StageInput, options: StageOptions = {}): Promise<ChangeSummary> {
    return (await this.startStaging(actor, input, options)).done;
  }

  async startStaging(actor: OpsActor, input: StageInput, options: StageOptions = {}): Promise<StartedStaging> {
    if (!hasRole(actor, 'maker')) throw new RoleRequiredError('maker', 'staging a change');
    return this.begin(actor, input.kind, input.path, input.fileName, input.sha256, null, {
      ...options,
      reading: input.reading,
      scope: input.scope ?? options.scope,
    });
  }

  /** Records the change (status validating) and prepares it in the background. */
  private async begin(
    actor: OpsActor,
    kind: ChangeKind,
    source: string | Uint8Array,
    fileName: string,
    sha256: string | undefined,
    rollbackOf: number | null,
    options: StageOptions,
  ): Promise<StartedStaging> {
    const id = randomUUID();
    const at = now();
    const lease = this.leases.columns();
    await this.db.run(
      `INSERT INTO desk_changes (id, kind, status, file_name, sha256, rollback_of, staged_by, staged_via, staged_at, updated_at,
         progress, lease_owner, lease_until, upload_path, scope)
       VALUES (?, ?, 'validating', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        kind,
        fileName,
        sha256 ?? '',
        rollbackOf,
        actor.name,
        actor.via,
        at,
        at,
        JSON.stringify({ phase: 'reading', done: 0, total: 0 }),
        lease.lease_owner,
        lease.lease_until,
        typeof source === 'string' ? source : null,
        options.scope ? JSON.stringify(options.scope) : null,
      ],
    );
    this.leases.hold(id);
    crashPoint('staging-started');
    const done = this.prepareAndSave(id, kind, source, fileName, options).then(
      async (summary) => {
        await this.recordOpsEvent({
          actor: actor.name,
          via: actor.via,
          action: rollbackOf === null ? 'stage' : 'rollback-staged',
          target: id,
          detail: {
            kind,
            fileName,
            rollbackOf,
            rows: summary.rows,
            problems: summary.problemCount,
            diff: summary.diff?.counts ?? null,
            guardFlagged: summary.diff?.guard.flagged ?? false,
          },
        });
        return summary;
      },
      async (error: Error) => {
        this.options.log?.(`staging ${id} failed: ${error.stack ?? error.message}`);
        await this.db.run(
          `UPDATE desk_changes SET status = 'failed', failure = ?, progress = NULL, lease_owner = NULL, lease_until = NULL,
             updated_at = ? WHERE id = ? AND status = 'validating' AND lease_owner = ?`,
          [error.message, now(), id, this.leases.owner],
        );
        return this.summaryOf(id);
      },
    );
    return this.track(id, done);
  }

  /** A held change's work in the background: kept until it settles (close waits for it), then the change let go. */
  private track(id: string, done: Promise<ChangeSummary>): StartedStaging {
    this.running.add(done);
    void done.finally(() => {
      this.running.delete(done);
      this.leases.letGo(id);
    });
    return { id, done };
  }

  private async prepareAndSave(
    id: string,
    kind: ChangeKind,
    source: string | Uint8Array,
    fileName: string,
    options: StageOptions,
  ): Promise<ChangeSummary> {
    let lastWrite = 0;
    const staged = await this.stageAndSave(id, kind, source, fileName, this.store, true, {
      reading: options.reading,
      maxUnpackedBytes: options.maxUnpackedBytes,
      scope: options.scope,
      onProgress: (progress, keptOnTheChange) => {
        options.onProgress?.(progress);
        // Kept on the change at most twice a second, for a poll from any instance (by the staging worker
        // itself where it writes to a SQLite store).
        if (keptOnTheChange || Date.now() - lastWrite < 500) return;
        lastWrite = Date.now();
        void this.db
          .run(`UPDATE desk_changes SET progress = ? WHERE id = ? AND status = 'validating'`, [
            JSON.stringify(progress),
            id,
          ])
          .catch(() => {});
      },
    });
    options.onProgress?.({ phase: 'done', done: staged.rowsRead, total: staged.rowsRead });
    return this.summaryOf(id);
  }

  /** The kept copy of a staged file, gzip-compressed (a file on disk streamed through gzip). */
  private async keptGzip(staged: StagedChange): Promise<Buffer> {
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
  private async stageAndSave(
    id: string,
    kind: ChangeKind,
    source: string | Uint8Array,
    fileName: string,
    served: ServedInput,
    /** Keep the file (a first staging; a re-diff reads the copy kept), before the change can be approved. */
    keepFile: boolean,
    options: Omit<StagingOptions, 'onEntries'> = {},
  ): Promise<StagedAgainst> {
    await this.db.run('DELETE FROM desk_problems WHERE change_id = ?', [id]);
    await this.db.run('DELETE FROM desk_diff WHERE change_id = ?', [id]);
    let seq = 0;
    const staged = await stage({
      kind,
      source,
      fileName,
      served,
      bytes: typeof source === 'string' ? (await stat(source)).size : source.byteLength,
      inWorker: this.options.stageInWorker,
      heapMb: this.options.stageHeapMb,
      keepFile,
      writeToSqlite:
        this.store.source?.engine === 'sqlite' ? { file: this.store.source.file, changeId: id } : undefined,
      options,
      onRows: (rows) =>
        this.db.insertMany(
          'desk_diff',
          DIFF_COLUMNS,
          rows.map((row) => [id, seq++, ...row]),
        ),
    });
    // A file refused (bad rows, broken references) keeps no difference.
    if (!staged.diff) await this.db.run('DELETE FROM desk_diff WHERE change_id = ?', [id]);
    else await this.withCountedRemovals(kind, staged.diff);
    await saveChangeQuality(this.db, id, staged.quality);
    options.onProgress?.({ phase: 'saving', done: 0, total: staged.problems.length });
    await this.db.insertMany(
      'desk_problems',
      ['change_id', 'seq:int', 'row_number:int', 'column_name', 'value', 'message', 'rule'],
      staged.problems.map((p, n) => [id, n, p.row, p.column, p.value, p.message, p.rule]),
    );
    const rules = new Map<string, RuleCount>();
    for (const p of staged.problems) {
      const counted = rules.get(p.rule) ?? { rule: p.rule, column: p.column, count: 0 };
      counted.count++;
      rules.set(p.rule, counted);
    }
    const ruleCounts = [...rules.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
    if (keepFile && staged.keptGz !== 'written')
      await this.db.run(KEEP_FILE_SQL, [
        id,
        staged.keptGz
          ? Buffer.from(staged.keptGz.buffer, staged.keptGz.byteOffset, staged.keptGz.byteLength)
          : await this.keptGzip(staged),
      ]);
    if (keepFile) await keepOriginal(this.db, id, source, staged.kept);
    crashPoint('staging-saving');
    // Staged by its holder only (a staging, a re-diff on approval or after an interrupted publish); a file
    // identical to what is served is refused (failed, with the reason): nothing to publish.
    const identical = isIdentical(staged);
    const saved = await this.db.run(
      `UPDATE desk_changes SET status = ?, failure = ?, countries = ?, sha256 = ?, rows_read = ?, rows_valid = ?, rows_bad = ?,
         problem_count = ?, summary = ?, by_bank = ?, rule_counts = ?, base_version = ?, served_rows = ?, progress = NULL,
         updated_at = ?, lease_owner = NULL, lease_until = NULL, approval = NULL
       WHERE id = ? AND status IN ('validating', 'approved') AND lease_owner = ?`,
      [
        identical ? 'failed' : 'staged',
        identical ? IDENTICAL_TO_SERVED : null,
        staged.countries.join(' '),
        staged.sha256,
        staged.rowsRead,
        staged.rowsValid,
        staged.rowsBad,
        staged.problems.length,
        staged.diff ? JSON.stringify(staged.diff.summary) : null,
        staged.diff ? JSON.stringify(staged.diff.byBank) : null,
        JSON.stringify(ruleCounts),
        staged.baseVersion,
        staged.diff ? JSON.stringify(staged.diff.served) : null,
        now(),
        id,
        this.leases.owner,
      ],
    );
    if (saved !== 1) throw new WrongStateError('the change was taken over by another instance meanwhile');
    return staged;
  }

  async progress(id: string): Promise<StagingProgress | null> {
    const row = await this.row(id);
    return json<StagingProgress>(row.progress);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Reading changes

  private async row(id: string): Promise<Row> {
    const [row] = await this.db.all(
      `SELECT id, kind, status, countries, file_name, sha256, rows_read, rows_valid, rows_bad, problem_count, summary,
         by_bank, rule_counts, base_version, rollback_of, staged_by, staged_via, staged_at, updated_at, decided_by,
         decided_at, comment, progress, failure, served_rows, approval, scope FROM desk_changes WHERE id = ?`,
      [id],
    );
    if (!row) throw new NotFoundError(`change ${id}`);
    return row;
  }

  private toSummary(row: Row, servedVersion: string): ChangeSummary {
    let status = row.status as ChangeStatus;
    if (status === 'staged' && row.base_version !== servedVersion) status = 'stale';
    const diff = json<DiffSummary>(row.summary);
    const updatedAt = String(row.updated_at);
    const open = status === 'staged' || status === 'stale' || status === 'validating';
    return {
      id: String(row.id),
      kind: row.kind as ChangeKind,
      status,
      countries: String(row.countries ?? '')
        .split(' ')
        .filter(Boolean),
      fileName: String(row.file_name),
      sha256: String(row.sha256),
      rows: { read: Number(row.rows_read), valid: Number(row.rows_valid), bad: Number(row.rows_bad) },
      problemCount: Number(row.problem_count),
      diff,
      baseVersion: String(row.base_version),
      rollbackOf: row.rollback_of === null || row.rollback_of === undefined ? null : Number(row.rollback_of),
      stagedBy: String(row.staged_by),
      stagedVia: row.staged_via as ChangeSummary['stagedVia'],
      stagedAt: String(row.staged_at),
      updatedAt,
      expiresAt: open ? new Date(Date.parse(updatedAt) + this.ttlMs).toISOString() : null,
      decidedBy: (row.decided_by as string | null) ?? null,
      decidedAt: (row.decided_at as string | null) ?? null,
      comment: (row.comment as string | null) ?? null,
      progress: json<StagingProgress>(row.progress),
      failure: (row.failure as string | null) ?? null,
      approvable: status === 'staged' && Number(row.problem_count) === 0 && diff !== null,
      scope: shownScope(json<StoredScope>(row.scope)),
    };
  }

  private async summaryOf(id: string): Promise<ChangeSummary> {
    return this.toSummary(await this.row(id), await this.store.dataVersion());
  }

  async get(id: string): Promise<ChangeDetail> {
    await this.expire();
    const row = await this.row(id);
    return {
      ...this.toSummary(row, await this.store.dataVersion()),
      ruleCounts: json<RuleCount[]>(row.rule_counts) ?? [],
      byBank: json<GroupCounts[]>(row.by_bank) ?? [],
    };
  }

  async list(query: ChangesQuery): Promise<OpsPage<ChangeSummary>> {
    await this.expire();
    const servedVersion = await this.store.dataVersion();
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.status === 'pending') where.push(`status = 'staged'`);
    else if (query.status === 'stale' || query.status === 'staged') {
      where.push(`status = 'staged' AND base_version ${query.status === 'stale' ? '<>' : '='} ?`);
      params.push(servedVersion);
    } else if (query.status) {
      where.push('status = ?');
      params.push(query.status);
    }
    if (query.kind) {
      where.push('kind = ?');
      params.push(query.kind);
    }
    if (query.stagedBy) {
      where.push('staged_by = ?');
      params.push(query.stagedBy);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ n }] = await this.db.all(`SELECT count(*) AS n FROM desk_changes ${filter}`, params);
    const rows = await this.db.all(
      `SELECT id, kind, status, countries, file_name, sha256, rows_read, rows_valid, rows_bad, problem_count, summary,
         NULL AS by_bank, NULL AS rule_counts, base_version, rollback_of, staged_by, staged_via, staged_at, updated_at,
         decided_by, decided_at, comment, progress, failure, scope
       FROM desk_changes ${filter} ORDER BY staged_at DESC, id LIMIT ? OFFSET ?`,
      [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
    );
    return page(
      rows.map((row) => this.toSummary(row, servedVersion)),
      Number(n),
      query.pageNumber,
      query.pageSize,
    );
  }

  private static problemOf(row: Row): ValidationProblem {
    return {
      row: row.row_number === null ? null : Number(row.row_number),
      column: (row.column_name as string | null) ?? null,
      value: (row.value as string | null) ?? null,
      message: String(row.message),
      rule: String(row.rule),
    };
  }

  async problems(id: string, query: ProblemsQuery): Promise<OpsPage<ValidationProblem>> {
    await this.row(id);
    const where = ['change_id = ?'];
    const params: unknown[] = [id];
    if (query.rule) {
      where.push('rule = ?');
      params.push(query.rule);
    }
    if (query.column) {
      where.push('column_name = ?');
      params.push(query.column);
    }
    const filter = where.join(' AND ');
    const [{ n }] = await this.db.all(`SELECT count(*) AS n FROM desk_problems WHERE ${filter}`, params);
    const rows = await this.db.all(
      `SELECT row_number, column_name, value, message, rule FROM desk_problems WHERE ${filter} ORDER BY seq LIMIT ? OFFSET ?`,
      [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
    );
    return page(rows.map(DeskEngine.problemOf), Number(n), query.pageNumber, query.pageSize);
  }

  async *allProblems(id: string): AsyncIterable<ValidationProblem> {
    await this.row(id);
    const CHUNK = 5000;
    for (let from = 0; ; from += CHUNK) {
      const rows = await this.db.all(
        'SELECT row_number, column_name, value, message, rule FROM desk_problems WHERE change_id = ? AND seq >= ? AND seq < ? ORDER BY seq',
        [id, from, from + CHUNK],
      );
      if (rows.length === 0) return;
      for (const row of rows) yield DeskEngine.problemOf(row);
    }
  }

  async diff(id: string, query: DiffQuery): Promise<OpsPage<DiffEntry>> {
    const row = await this.row(id);
    // The total from the counts per bank kept with the change: no count over a million entries per page.
    const groups = json<GroupCounts[]>(row.by_bank) ?? [];
    const ops = query.op ? [query.op] : (['added', 'removed', 'changed'] as const);
    let total = 0;
    for (const g of query.q ? [] : groups) {
      if (query.country && g.country !== query.country) continue;
      if (query.bankCode && g.bankCode !== query.bankCode) continue;
      for (const op of ops) total += g[op];
    }
    const where = ['change_id = ?'];
    const params: unknown[] = [id];
    for (const [column, value] of [
      ['op', query.op],
      ['country', query.country],
      ['bank_code', query.bankCode],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    if (query.q) {
      // A search reads the change's entries (no index holds parts of names): its total is counted.
      const search = diffSearch(query.q);
      where.push(search.sql);
      params.push(search.param);
      total = Number(
        (await this.db.all(`SELECT count(*) AS n FROM desk_diff WHERE ${where.join(' AND ')}`, params))[0].n,
      );
    }
    // Each filter pages along an index in its order (006/007 migrations): by operation, then country and bank;
    // by country and bank; or the difference's own order.
    const order = query.op
      ? 'op, country, bank_code, seq'
      : query.country
        ? 'country, bank_code, seq'
        : query.bankCode
          ? 'bank_code, seq'
          : 'seq';
    // Two steps: the page's positions from the index alone (the entries skipped over are never read), then
    // those entries. In one query the planner may walk the table by position instead (a page of one bank deep
    // in a million entries read 150,000 of them: 40–80 ms).
    const positions = await this.db.all(
      `SELECT seq FROM desk_diff WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
    );
    const seqs = positions.map((p) => Number(p.seq));
    const found = seqs.length
      ? await this.db.all(
          `SELECT ${DIFF_ENTRY_COLUMNS} FROM desk_diff WHERE change_id = ? AND seq IN (${seqs.map(() => '?').join(', ')})`,
          [id, ...seqs],
        )
      : [];
    const bySeq = new Map<number, Row>(found.map((r) => [Number(r.seq), r]));
    const rows = seqs.map((seq) => bySeq.get(seq)).filter((r): r is Row => r !== undefined);
    return page(rows.map(diffEntryOfRow), total, query.pageNumber, query.pageSize);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Decisions

  /**
   * Moves the change from one of `from` to `to`; false when another caller moved it first (or, with `held`, when
   * this engine no longer holds it).
   */
  private async transition(
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
  private release(id: string) {
    return this.transition(
      id,
      ['approved'],
      'staged',
      { lease_owner: null, lease_until: null, approval: null },
      { held: true },
    );
  }

  async approve(actor: OpsActor, id: string, body: ApproveBody): Promise<ChangeSummary> {
    if (!hasRole(actor, 'checker')) throw new RoleRequiredError('checker', 'approving a change');
    const row = await this.row(id);
    // Four eyes: the maker never approves their own change, whatever roles they hold or identity they use, nor
    // does an identity the maker stands behind.
    checkFourEyes(actor, String(row.staged_by));
    return this.publish(actor, row, body, { comment: body.comment });
  }

  /**
   * Publishes a staged change (approve, and the import command). Claims it first (staged → approved), so two
   * checkers cannot both publish it; anything that stops the publish puts it back to staged.
   */
  private async publish(
    actor: OpsActor,
    row: Row,
    body: { confirmRemovals?: boolean },
    decision: { comment: string },
  ): Promise<ChangeSummary> {
    const id = String(row.id);
    if (row.status !== 'staged') throw new WrongStateError(`the change is ${String(row.status)}, not staged`);
    const summary = this.toSummary(row, String(row.base_version));
    if (!summary.approvable)
      throw new WrongStateError('the change has validation problems (or no difference): it cannot be published');
    const served = json<Record<string, number>>(row.served_rows);
    if (served) summary.diff = await this.guardNow(id, summary.kind, summary.diff!, served);
    if (summary.diff!.guard.flagged && !body.confirmRemovals)
      throw new RemovalsNotConfirmedError(describeGuard(summary.diff!, summary.kind));
    const approval: Approval = {
      by: actor.name,
      via: actor.via,
      comment: decision.comment,
      confirmRemovals: body.confirmRemovals ?? false,
    };
    // Held by this engine while it publishes (recovery.ts): a crash leaves it to a recovery, never stuck.
    const claim = { ...this.leases.columns(), approval: JSON.stringify(approval) };
    if (!(await this.transition(id, ['staged'], 'approved', claim)))
      throw new WrongStateError('the change was decided or changed meanwhile');
    this.leases.hold(id);
    crashPoint('publish-claimed');
    let swapped = false;
    try {
      const version = await this.store.dataVersion();
      if (version !== row.base_version) await this.restale(actor, id, summary.kind);
      const gz = await this.keptGzipOf(id);
      const scope = json<StoredScope>(row.scope);
      const { kind, fileName, sha256, countries } = summary;
      const untouched = summary.rollbackOf === null ? [] : untouchedCountries(countries, summary.diff);
      const job = { kind, gz, fileName, sha256, untouched, expectedVersion: version, scope };
      const outcome = await publishChange(
        this.store,
        { ...job, changeId: id, owner: this.leases.owner, leaseMs: this.leases.ms },
        this.options.stageInWorker ?? gz.byteLength >= PUBLISH_IN_WORKER_FROM_GZ_BYTES,
      );
      if (outcome.type === 'invalid')
        throw new WrongStateError('the change no longer validates against the published data');
      if (outcome.type === 'changed') await this.restale(actor, id, summary.kind);
      if (outcome.type === 'not-held') throw new WrongStateError('the change was taken over by another instance');
      if (outcome.type !== 'published') throw new Error('unreachable');
      swapped = true;
      crashPoint('publish-recording');
      await this.recordPublish(id, outcome.next, false);
      await this.catchUp();
      return this.summaryOf(id);
    } finally {
      if (!swapped) await this.release(id);
      this.leases.letGo(id);
    }
  }

  /**
   * Records a publish whose data swap committed, in one transaction: the change published, its version (pointing
   * at `next`'s snapshot) and the approve and publish events — only while this engine holds the change. The
   * version id, or null when it does not hold it (another instance recorded it).
   */
  private async recordPublish(id: string, next: VersionContent, recovered: boolean): Promise<number | null> {
    const row = await this.row(id);
    const summary = this.toSummary(row, String(row.base_version));
    const approval = json<Approval>(row.approval) ?? {
      by: 'unknown',
      via: 'unknown',
      comment: '',
      confirmRemovals: false,
    };
    const [swap] = await this.db.all('SELECT data_version FROM desk_swaps WHERE change_id = ?', [id]);
    const dataVersion = String(swap?.data_version ?? (await this.store.dataVersion()));
    const at = now();
    const marked = recovered ? { recovered: true } : {};
    const served = json<Record<string, number>>(row.served_rows);
    const ledger =
      served && (await this.ledgerAfter(summary.kind, summary.diff!, served, approval.confirmRemovals, at));
    return this.db.transaction(async (tx) => {
      const decided = { decided_by: approval.by, decided_at: at, comment: approval.comment || null };
      const published = { ...decided, lease_owner: null, lease_until: null, approval: null };
      if (!(await this.transition(id, ['approved'], 'published', published, { held: true, db: tx }))) return null;
      const versionId = await this.recordVersion(summary, approval.by, next, dataVersion, at, ledger, tx);
      await recordHistoryOf(tx, summary.kind, versionId, id);
      const actor = { actor: approval.by, via: approval.via, target: id };
      const { comment, confirmRemovals } = approval;
      await this.recordOpsEvent({ ...actor, action: 'approve', detail: { comment, confirmRemovals, ...marked } }, tx);
      const { kind, fileName } = summary;
      const detail = { version: versionId, kind, fileName, dataVersion, diff: summary.diff!.counts, ...marked };
      await this.recordOpsEvent({ ...actor, action: 'publish', detail }, tx);
      return versionId;
    });
  }

  /**
   * The data changed under a change being approved: it is diffed again against what is served now (status
   * staged, a fresh difference and report) and the approval refused with StaleChangeError (409).
   */
  private async restale(actor: OpsActor, id: string, kind: ChangeKind): Promise<never> {
    const row = await this.row(id);
    // Staged again against what is served now: stageAndSave marks it staged, from approved.
    const staged = await this.stageAndSave(id, kind, await this.fileOf(id), String(row.file_name), this.store, false, {
      scope: json<StoredScope>(row.scope),
    });
    const version = staged.baseVersion;
    await this.recordOpsEvent({
      actor: actor.name,
      via: actor.via,
      action: 'restale',
      target: id,
      detail: { from: row.base_version, to: version, diff: staged.diff?.summary.counts ?? null },
    });
    throw new StaleChangeError(await this.summaryOf(id), String(row.base_version), version);
  }

  /**
   * Compare again (a maker or checker): a stale change is diffed against what is served now, in the background
   * (status validating meanwhile, as a staging), then staged with its new difference (or failed: identical).
   */
  async startRecheck(actor: OpsActor, id: string): Promise<StartedStaging> {
    if (!hasRole(actor, 'maker') && !hasRole(actor, 'checker'))
      throw new RoleRequiredError('checker', 'comparing a change again (or the maker role)');
    const row = await this.row(id);
    const served = await this.store.dataVersion();
    if (row.status !== 'staged' || row.base_version === served)
      throw new WrongStateError(
        `the change is ${this.toSummary(row, served).status}, not stale: nothing to compare again`,
      );
    const claim = { ...this.leases.columns(), progress: JSON.stringify({ phase: 'reading', done: 0, total: 0 }) };
    if (!(await this.transition(id, ['staged'], 'validating', claim)))
      throw new WrongStateError('the change was decided or changed meanwhile');
    this.leases.hold(id);
    const kind = row.kind as ChangeKind;
    const done = (async () => {
      try {
        const staged = await this.stageAndSave(
          id,
          kind,
          await this.fileOf(id),
          String(row.file_name),
          this.store,
          false,
        );
        const detail = { from: row.base_version, to: staged.baseVersion, diff: staged.diff?.summary.counts ?? null };
        await this.recordOpsEvent({ actor: actor.name, via: actor.via, action: 'recheck', target: id, detail });
      } catch (error) {
        this.options.log?.(`comparing ${id} again failed: ${(error as Error).stack ?? String(error)}`);
        const failed = { failure: (error as Error).message, progress: null, lease_owner: null, lease_until: null };
        await this.transition(id, ['validating'], 'failed', failed, { held: true });
      }
      return this.summaryOf(id);
    })();
    return this.track(id, done);
  }

  private async keptGzipOf(id: string): Promise<Buffer> {
    const [row] = await this.db.all('SELECT file_gz FROM desk_files WHERE change_id = ?', [id]);
    if (!row?.file_gz) throw new WrongStateError('the change has no file kept');
    return row.file_gz as Buffer;
  }

  private async fileOf(id: string): Promise<Buffer> {
    return gunzip(await this.keptGzipOf(id));
  }

  async reject(actor: OpsActor, id: string, body: RejectBody): Promise<ChangeSummary> {
    if (!hasRole(actor, 'checker')) throw new RoleRequiredError('checker', 'rejecting a change');
    const reason = body.reason?.trim();
    if (!reason) throw new DeskError('a rejection needs a reason', 400, 'reason-required');
    await this.row(id);
    if (
      !(await this.transition(id, ['staged'], 'rejected', {
        decided_by: actor.name,
        decided_at: now(),
        comment: reason,
      }))
    )
      throw new WrongStateError(`the change is ${String((await this.row(id)).status)}, not staged`);
    await this.recordOpsEvent({ actor: actor.name, via: actor.via, action: 'reject', target: id, detail: { reason } });
    return this.summaryOf(id);
  }

  async discard(actor: OpsActor, id: string): Promise<ChangeSummary> {
    const row = await this.row(id);
    if (!isPerson(actor, String(row.staged_by)) && !hasRole(actor, 'admin'))
      throw new DeskError('only the maker of a change (or an admin) can discard it', 403, 'not-your-change');
    if (!(await this.transition(id, ['staged', 'failed'], 'discarded', { decided_by: actor.name, decided_at: now() })))
      throw new WrongStateError(`the change is ${String(row.status)}, not staged`);
    await this.recordOpsEvent({ actor: actor.name, via: actor.via, action: 'discard', target: id });
    return this.summaryOf(id);
  }

  async expire(at: Date = new Date()): Promise<number> {
    const cutoff = new Date(at.getTime() - this.ttlMs).toISOString();
    const rows = await this.db.all(`SELECT id FROM desk_changes WHERE status = 'staged' AND updated_at < ?`, [cutoff]);
    let expired = 0;
    for (const { id } of rows) {
      if (!(await this.transition(String(id), ['staged'], 'expired', { decided_at: at.toISOString() }))) continue;
      expired++;
      await this.recordOpsEvent({
        ...SYSTEM,
        actor: SYSTEM.name,
        action: 'expire',
        target: String(id),
        detail: { untouchedSince: cutoff },
      });
    }
    return expired;
  }

  // ---------------------------------------------------------------------------------------------------------
  // The removal guard across changes (removal-ledger.ts)

  /** The ledger of the kind's latest version (it holds all the guard needs). */
  private async latestLedger(kind: ChangeKind): Promise<RemovalLedger> {
    const [row] = await this.db.all(
      'SELECT removal_ledger FROM desk_versions WHERE kind = ? AND removal_ledger IS NOT NULL ORDER BY id DESC LIMIT 1',
      [kind],
    );
    return json<RemovalLedger>(row?.removal_ledger) ?? {};
  }

  private async countedRemovals(kind: ChangeKind): Promise<RemovalHistory> {
    return removalHistory(await this.latestLedger(kind));
  }

  /** A staged difference's guard, with the removals earlier versions made counted in. */
  private async withCountedRemovals(kind: ChangeKind, diff: Difference): Promise<void> {
    diff.summary.guard = removalGuard(diff.summary, diff.served, await this.countedRemovals(kind));
  }

  /**
   * The guard of a change being approved, from its counts and the removals counted now (a version published or
   * the window moved since it was staged); kept on the change when it differs, so its report shows it.
   */
  private async guardNow(
    id: string,
    kind: ChangeKind,
    diff: DiffSummary,
    served: Record<string, number>,
  ): Promise<DiffSummary> {
    const guard = removalGuard(diff, served, await this.countedRemovals(kind));
    if (JSON.stringify(guard) === JSON.stringify(diff.guard)) return diff;
    const updated = { ...diff, guard };
    await this.db.run('UPDATE desk_changes SET summary = ? WHERE id = ?', [JSON.stringify(updated), id]);
    return updated;
  }

  /** The kind's ledger once this change is published at `at` (`confirmed`: its guard flags were confirmed). */
  private async ledgerAfter(
    kind: ChangeKind,
    summary: DiffSummary,
    served: Record<string, number>,
    confirmed: boolean,
    at: string,
  ): Promise<RemovalLedger> {
    return nextLedger(await this.latestLedger(kind), { summary, served }, confirmed && summary.guard.flagged, at);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Versions

  /** Records a published version with its kind's snapshot; versions past the retention go, with their snapshots. */
  private async recordVersion(
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

  async versions(query: VersionsQuery): Promise<OpsPage<VersionSummary>> {
    const filter = query.kind ? 'WHERE kind = ?' : '';
    const params = query.kind ? [query.kind] : [];
    const [{ n }] = await this.db.all(`SELECT count(*) AS n FROM desk_versions ${filter}`, params);
    const rows = await this.db.all(
      `SELECT id, kind, change_id, staged_by, approved_by, published_at, file_name, sha256, rows, countries, summary,
         data_version, snapshot_id IS NOT NULL AS restorable,
         (SELECT rollback_of FROM desk_changes c WHERE c.id = change_id) AS rollback_of
       FROM desk_versions ${filter} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
    );
    return page(
      rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind as ChangeKind,
        changeId: (r.change_id as string | null) ?? null,
        stagedBy: (r.staged_by as string | null) ?? null,
        approvedBy: (r.approved_by as string | null) ?? null,
        publishedAt: String(r.published_at),
        fileName: String(r.file_name),
        sha256: String(r.sha256),
        rows: Number(r.rows),
        countries: String(r.countries ?? '')
          .split(' ')
          .filter(Boolean),
        diff: json<DiffSummary>(r.summary),
        dataVersion: String(r.data_version),
        restorable: Boolean(r.restorable),
        rollbackOf: r.rollback_of === null || r.rollback_of === undefined ? null : Number(r.rollback_of),
      })),
      Number(n),
      query.pageNumber,
      query.pageSize,
    );
  }

  /** onPublished, waited for at most PUBLISH_CATCH_UP_MS (a failure or a slow build never fails the publish). */
  private async catchUp(): Promise<void> {
    const onPublished = this.options.onPublished;
    if (!onPublished) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), PUBLISH_CATCH_UP_MS);
    });
    try {
      const outcome = await Promise.race([Promise.resolve(onPublished()).then(() => 'done' as const), timeout]);
      if (outcome === 'timeout') this.options.log?.('published; the search index is still being rebuilt');
    } catch (error) {
      this.options.log?.(`published; refreshing the search index failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async stageRollback(actor: OpsActor, versionId: number, options: StageOptions = {}): Promise<ChangeSummary> {
    return (await this.startRollback(actor, versionId, options)).done;
  }

  async startRollback(actor: OpsActor, versionId: number, options: StageOptions = {}): Promise<StartedStaging> {
    if (!hasRole(actor, 'checker')) throw new RoleRequiredError('checker', 'rolling back');
    const [version] = await this.db.all(
      `SELECT v.id, v.kind, v.file_name, s.snapshot_gz FROM desk_versions v
         LEFT JOIN desk_snapshots s ON s.id = v.snapshot_id WHERE v.id = ?`,
      [versionId],
    );
    if (!version) throw new NotFoundError(`version ${versionId}`);
    if (!version.snapshot_gz) throw new WrongStateError(`version ${versionId} has no snapshot kept`);
    const bytes = await gunzip(version.snapshot_gz as Buffer);
    const started = await this.begin(
      actor,
      version.kind as ChangeKind,
      bytes,
      `rollback-to-version-${versionId}.csv`,
      undefined,
      versionId,
      options,
    );
    return started;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Recovery (recovery.ts says what it promises)

  /** Recovers now, then every half lease until close(), in the background; a failed pass is logged and retried. */
  startRecovery(): void {
    if (this.recovery) return;
    const pass = () => {
      if (!this.recovery || this.recovery.pass) return;
      this.recovery.pass = this.recover()
        .catch((error: Error) => this.options.log?.(`desk recovery failed: ${error.stack ?? error.message}`))
        .finally(() => {
          if (this.recovery) this.recovery.pass = undefined;
        });
    };
    this.recovery = { timer: setInterval(pass, this.leases.ms / 2), pass: undefined };
    this.recovery.timer.unref();
    pass();
  }

  /**
   * Takes over each change left validating or approved by an engine whose lease ran out: a staging becomes
   * failed (its upload removed); a publish is completed if its data swap committed, else released to staged.
   * Then removes the uploads no staging reads.
   */
  async recover(): Promise<void> {
    const cutoff = now();
    // Not a change this process holds: another of its threads works on it, however late its renewal.
    const stopped = await this.db.all(
      `SELECT id, status, upload_path FROM desk_changes
       WHERE status IN ('validating', 'approved') AND (lease_until IS NULL OR lease_until < ?)
         AND (lease_owner IS NULL OR lease_owner <> ?)`,
      [cutoff, this.leases.owner],
    );
    for (const row of stopped) {
      const id = String(row.id);
      // One change failing to recover (a database error) leaves the others and the uploads to this pass.
      await this.takeOver(id, String(row.status), row.upload_path, cutoff).catch((error: Error) =>
        this.options.log?.(`desk recovery of change ${id} failed: ${error.stack ?? error.message}`),
      );
    }
    if (this.options.uploads) await sweepUploads(this.db, this.options.uploads);
  }

  /** Takes an interrupted staging or publish over, if no other instance took it first (one UPDATE, lease out). */
  private async takeOver(id: string, status: string, uploadPath: unknown, cutoff: string): Promise<void> {
    const expired = `id = ? AND status = ? AND (lease_until IS NULL OR lease_until < ?)`;
    if (status === 'validating') {
      const failed = await this.db.transaction(async (tx) => {
        const taken = await tx.run(
          `UPDATE desk_changes SET status = 'failed', failure = ?, progress = NULL, lease_owner = NULL,
             lease_until = NULL, updated_at = ? WHERE ${expired}`,
          [INTERRUPTED_STAGING, now(), id, 'validating', cutoff],
        );
        if (taken === 1)
          await this.recordOpsEvent({ ...SYSTEM, actor: SYSTEM.name, action: 'stage-interrupted', target: id }, tx);
        return taken === 1;
      });
      if (!failed) return;
      await removeUpload(this.options.uploads, uploadPath);
      this.options.log?.(`change ${id}: its staging was interrupted; marked failed`);
      return;
    }
    const { lease_owner, lease_until } = this.leases.columns();
    const taken = await this.db.runNoWait(`UPDATE desk_changes SET lease_owner = ?, lease_until = ? WHERE ${expired}`, [
      lease_owner,
      lease_until,
      id,
      'approved',
      cutoff,
    ]);
    if (taken !== 1) return;
    this.leases.hold(id);
    try {
      await this.recoverPublish(id);
    } finally {
      this.leases.letGo(id);
    }
  }

  /** An interrupted publish this engine has taken over: completed if its swap committed, else released. */
  private async recoverPublish(id: string): Promise<void> {
    // What the stopped publish kept without a version (a snapshot made after its swap, say).
    await this.db.run(ORPHAN_SNAPSHOTS_SQL, [id]);
    const [swap] = await this.db.all('SELECT data_version FROM desk_swaps WHERE change_id = ?', [id]);
    const row = await this.row(id);
    const kind = row.kind as ChangeKind;
    if (swap) {
      // The change's data is served: its version is made from what is served.
      const { dataSet } = await this.store.readDataSet();
      const next = await versionContentOf(this.store, kind, dataSet, id);
      const versionId = await this.recordPublish(id, next, true);
      if (versionId === null) await this.db.run('DELETE FROM desk_snapshots WHERE id = ?', [next.snapshotId]);
      this.options.log?.(
        `change ${id}: its publish was interrupted after the data swap; recorded as version ${versionId}`,
      );
      return;
    }
    const servedVersion = await this.store.dataVersion();
    // Said first, while this engine holds the change: a crash before the release repeats it, never loses it.
    await this.recordOpsEvent({
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
        await this.stageAndSave(id, kind, await this.fileOf(id), String(row.file_name), this.store, false, {
          scope: json<StoredScope>(row.scope),
        });
      } catch (error) {
        this.options.log?.(`change ${id}: diffing it again failed: ${(error as Error).message}`);
      }
    }
    await this.release(id);
    this.options.log?.(`change ${id}: its publish was interrupted before the data swap; staged again`);
  }

  // ---------------------------------------------------------------------------------------------------------
  // The import command

  /**
   * The import command's path: the file staged like any change (by the shell user), its difference shown, then
   * published by the same user — an operator with shell access is both maker and checker, and audited as such.
   * Over the removal guard it is refused unless `allowRemovals`. `dryRun` diffs and keeps nothing.
   */
  async prepareFromShell(kind: ChangeKind, path: string, fileName: string, options: { skipInvalid?: boolean } = {}) {
    const { dataSet, version } = await this.store.readDataSet();
    const served = { dataSet, version };
    // The difference's entries are kept under the change id the import will be recorded with (the records'
    // history reads them); forgetShellImport drops them when nothing is applied.
    const id = randomUUID();
    let seq = 0;
    const prepared = await stage({
      kind,
      source: path,
      fileName,
      served,
      bytes: 0,
      inWorker: false,
      options,
      onRows: (rows) =>
        this.db.insertMany(
          'desk_diff',
          DIFF_COLUMNS,
          rows.map((row) => [id, seq++, ...row]),
        ),
    });
    if (prepared.diff) await this.withCountedRemovals(kind, prepared.diff);
    else await this.forgetShellImport(id);
    return { id, prepared, served: dataSet, version };
  }

  /** The import command applied nothing (a dry run, refused, failed): its difference's entries go. */
  async forgetShellImport(id: string): Promise<void> {
    await this.db.run('DELETE FROM desk_diff WHERE change_id = ?', [id]);
  }

  /**
   * Records what the import command published (it wrote through the importer, importFile): a published change,
   * a version with its snapshot (rollback-able from the desk) and the audit row.
   */
  async recordShellImport(
    actor: OpsActor,
    id: string,
    prepared: StagedChange,
    kind: ChangeKind,
    served: DataSet,
    baseVersion: string,
  ): Promise<number> {
    const at = now();
    const next = (await this.store.readDataSet()).dataSet;
    const dataVersion = await this.store.dataVersion();
    await this.db.run(
      `INSERT INTO desk_changes (id, kind, status, countries, file_name, sha256, rows_read, rows_valid, rows_bad, problem_count,
         summary, by_bank, rule_counts, base_version, staged_by, staged_via, staged_at, updated_at, decided_by, decided_at, comment)
       VALUES (?, ?, 'published', ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        kind,
        prepared.countries.join(' '),
        prepared.fileName,
        prepared.sha256,
        prepared.rowsRead,
        prepared.rowsValid,
        prepared.rowsBad,
        prepared.problems.length,
        prepared.diff ? JSON.stringify(prepared.diff.summary) : null,
        prepared.diff ? JSON.stringify(prepared.diff.byBank) : null,
        baseVersion,
        actor.name,
        actor.via,
        at,
        at,
        actor.name,
        at,
        'npm run import',
      ],
    );
    await keepBaseline(this.store, kind, served, id, at);
    // Applied over the guard only with --allow-removals: its removals were confirmed.
    const ledger =
      prepared.diff &&
      (await this.ledgerAfter(
        kind,
        prepared.diff.summary,
        prepared.diff.served,
        prepared.diff.summary.guard.flagged,
        at,
      ));
    const versionId = await this.recordVersion(
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
      await versionContentOf(this.store, kind, next, id),
      dataVersion,
      at,
      ledger,
    );
    await recordHistoryOf(this.db, kind, versionId, id);
    await this.recordOpsEvent({
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

  // ---------------------------------------------------------------------------------------------------------
  // Audit

  async recordOpsEvent(event: OpsEvent, db = this.db): Promise<number> {
    const [row] = await db.all(
      'INSERT INTO ops_audit (at, actor, via, action, target, detail) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      [
        (event.at ?? new Date()).toISOString(),
        event.actor,
        event.via,
        event.action,
        event.target ?? null,
        event.detail ? JSON.stringify(event.detail) : null,
      ],
    );
    return Number(row.id);
  }

  /** Updates an aggregate row's running count (refused sign-ins: plugins/app/refused-sign-ins.ts). */
  async reviseOpsEvent(id: number, detail: Record<string, unknown>): Promise<void> {
    await this.db.run('UPDATE ops_audit SET detail = ? WHERE id = ?', [JSON.stringify(detail), id]);
  }

  async audit(query: AuditQuery): Promise<OpsPage<AuditEntry>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.action) {
      where.push('action = ?');
      params.push(query.action);
    }
    if (query.actor) {
      where.push('actor = ?');
      params.push(query.actor);
    }
    if (query.from) {
      where.push('at >= ?');
      params.push(new Date(query.from).toISOString());
    }
    if (query.to) {
      where.push('at < ?');
      params.push(new Date(query.to).toISOString());
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ n }] = await this.db.all(`SELECT count(*) AS n FROM ops_audit ${filter}`, params);
    const rows = await this.db.all(
      `SELECT id, at, actor, via, action, target, detail FROM ops_audit ${filter} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [...params, query.pageSize, (query.pageNumber - 1) * query.pageSize],
    );
    return page(
      rows.map((r) => ({
        id: Number(r.id),
        at: String(r.at),
        actor: String(r.actor),
        via: String(r.via),
        action: String(r.action),
        target: (r.target as string | null) ?? null,
        detail: json<Record<string, unknown>>(r.detail),
      })),
      Number(n),
      query.pageNumber,
      query.pageSize,
    );
  }

  /** Waits for stagings and a recovery still running (they write to the store); the store is the caller's. */
  async close(): Promise<void> {
    const recovery = this.recovery;
    this.recovery = undefined;
    if (recovery) clearInterval(recovery.timer);
    await Promise.allSettled([...this.running, recovery?.pass]);
  }
}

/** The desk's events for a caller that has only the store (desk-auth's sign-in events). */
export const recordOpsEvent = (store: LookupStore, event: OpsEvent) => new DeskEngine(store).recordOpsEvent(event);
