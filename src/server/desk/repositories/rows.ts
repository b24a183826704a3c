import type {
  ChangeKind,
  ChangeStatus,
  ChangeSummary,
  DiffSummary,
  OpsPage,
  StagingProgress,
  ValidationProblem,
  VersionSummary,
} from '../../../contract/ops-changes';
import type { DeskDb, Row } from '../db';
import { shownScope, type StoredScope } from '../scope';

// The desk's rows as the contract's objects: a change (desk_changes), a validation problem (desk_problems), a
// version (desk_versions), and a page of them (pageOf: a filtered, counted page of a table's rows).

/** The approval being published, kept on the change while it is approved (a recovery records it). */
export interface Approval {
  by: string;
  via: string;
  comment: string;
  confirmRemovals: boolean;
}

export const now = () => new Date().toISOString();
export const json = <T>(value: unknown): T | null =>
  typeof value === 'string' && value ? (JSON.parse(value) as T) : null;
export const page = <T>(data: T[], totalItems: number, pageNumber: number, pageSize: number): OpsPage<T> => ({
  data,
  pagination: { pageNumber, pageSize, totalItems, totalPages: Math.ceil(totalItems / pageSize) },
});

/** A WHERE clause built a condition at a time, with the parameters of its ?s in order. */
export class Where {
  private readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  constructor(condition?: string, ...params: unknown[]) {
    if (condition) this.and(condition, ...params);
  }

  and(condition: string, ...params: unknown[]): void {
    this.conditions.push(condition);
    this.params.push(...params);
  }

  /** `WHERE …`, or nothing without a condition. */
  get sql(): string {
    return this.conditions.length > 0 ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

/** The query's page of `from`'s rows that `where` selects, in `order`, each made by `of`; all of them counted. */
export async function pageOf<T>(
  db: DeskDb,
  { select, from, where, order }: { select: string; from: string; where: Where; order: string },
  { pageNumber, pageSize }: { pageNumber: number; pageSize: number },
  of: (row: Row) => T,
): Promise<OpsPage<T>> {
  const [{ n }] = await db.all(`SELECT count(*) AS n FROM ${from} ${where.sql}`, where.params);
  const rows = await db.all(`SELECT ${select} FROM ${from} ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [
    ...where.params,
    pageSize,
    (pageNumber - 1) * pageSize,
  ]);
  return page(rows.map(of), Number(n), pageNumber, pageSize);
}

/** The words of a space-separated column (countries, changed fields); none for null. */
export const wordsOf = (value: unknown) =>
  String(value ?? '')
    .split(' ')
    .filter(Boolean);
const rollbackOfRow = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** A change's summary; `ttlMs`: how long a staged change may stay untouched before it expires. */
export function changeSummaryOf(row: Row, servedVersion: string, ttlMs: number): ChangeSummary {
  let status = row.status as ChangeStatus;
  if (status === 'staged' && row.base_version !== servedVersion) status = 'stale';
  const diff = json<DiffSummary>(row.summary);
  const updatedAt = String(row.updated_at);
  const open = status === 'staged' || status === 'stale' || status === 'validating';
  return {
    id: String(row.id),
    kind: row.kind as ChangeKind,
    status,
    countries: wordsOf(row.countries),
    fileName: String(row.file_name),
    sha256: String(row.sha256),
    rows: { read: Number(row.rows_read), valid: Number(row.rows_valid), bad: Number(row.rows_bad) },
    problemCount: Number(row.problem_count),
    diff,
    baseVersion: String(row.base_version),
    rollbackOf: rollbackOfRow(row.rollback_of),
    stagedBy: String(row.staged_by),
    stagedVia: row.staged_via as ChangeSummary['stagedVia'],
    stagedAt: String(row.staged_at),
    updatedAt,
    expiresAt: open ? new Date(Date.parse(updatedAt) + ttlMs).toISOString() : null,
    decidedBy: (row.decided_by as string | null) ?? null,
    decidedAt: (row.decided_at as string | null) ?? null,
    comment: (row.comment as string | null) ?? null,
    progress: json<StagingProgress>(row.progress),
    failure: (row.failure as string | null) ?? null,
    approvable: status === 'staged' && Number(row.problem_count) === 0 && diff !== null,
    scope: shownScope(json<StoredScope>(row.scope)),
  };
}

export function problemOf(row: Row): ValidationProblem {
  return {
    row: row.row_number === null ? null : Number(row.row_number),
    column: (row.column_name as string | null) ?? null,
    value: (row.value as string | null) ?? null,
    message: String(row.message),
    rule: String(row.rule),
  };
}

export function versionOf(r: Row): VersionSummary {
  return {
    id: Number(r.id),
    kind: r.kind as ChangeKind,
    changeId: (r.change_id as string | null) ?? null,
    stagedBy: (r.staged_by as string | null) ?? null,
    approvedBy: (r.approved_by as string | null) ?? null,
    publishedAt: String(r.published_at),
    fileName: String(r.file_name),
    sha256: String(r.sha256),
    rows: Number(r.rows),
    countries: wordsOf(r.countries),
    diff: json<DiffSummary>(r.summary),
    dataVersion: String(r.data_version),
    restorable: Boolean(r.restorable),
    rollbackOf: rollbackOfRow(r.rollback_of),
  };
}
