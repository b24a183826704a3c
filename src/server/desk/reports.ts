import { randomInt } from 'node:crypto';
import type { ChangeKind } from '../../contract/ops-changes';
import type { Report, ReportReason, ReportsPage, ReportsQuery } from '../../contract/reports';
import type { DeskDb, Row } from './db';
import { Where, pageOf } from './repositories/rows';

// Tellers' reports of a problem with a served record: written by
// POST /v1/reports, queued for the desk by GET /v1/ops/reports, closed by POST /v1/ops/reports/{id}/close. The
// note is kept as the text typed; nothing here reads it as anything else.

/** Letters and digits without the ones read alike (0/O, 1/I/L): a reference read out over the phone. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const newReportId = () => `R-${Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;

const COLUMNS =
  'id, kind, record_key, reason, note, correspondent_id, created_at, closed_at, closed_by, fixed_by, close_note';

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

function reportOf(r: Row): Report {
  return {
    id: String(r.id),
    kind: r.kind as ChangeKind,
    key: String(r.record_key),
    reason: r.reason as ReportReason,
    note: String(r.note),
    correspondentId: String(r.correspondent_id),
    createdAt: String(r.created_at),
    status: r.closed_at ? 'closed' : 'open',
    closedAt: text(r.closed_at),
    closedBy: text(r.closed_by),
    fixedBy: text(r.fixed_by),
    closeNote: text(r.close_note),
  };
}

export interface NewReport {
  kind: ChangeKind;
  /** The record's key in its canonical form (recordKeyOf). */
  key: string;
  reason: ReportReason;
  note: string;
  correspondentId: string;
}

export async function createReport(db: DeskDb, report: NewReport, now = new Date()): Promise<Report> {
  const [row] = await db.all(
    `INSERT INTO teller_reports (id, kind, record_key, reason, note, correspondent_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    [newReportId(), report.kind, report.key, report.reason, report.note, report.correspondentId, now.toISOString()],
  );
  return reportOf(row);
}

/** The queue, newest first: open, closed or all, of one kind or one record. */
export async function listReports(db: DeskDb, query: ReportsQuery): Promise<ReportsPage> {
  const where = new Where();
  if (query.status === 'open') where.and('closed_at IS NULL');
  if (query.status === 'closed') where.and('closed_at IS NOT NULL');
  if (query.kind) where.and('kind = ?', query.kind);
  if (query.key !== undefined) where.and('record_key = ?', query.key);
  const order = 'created_at DESC, id DESC';
  return pageOf(db, { select: COLUMNS, from: 'teller_reports', where, order }, query, reportOf);
}

export async function readReport(db: DeskDb, id: string): Promise<Report | null> {
  const [row] = await db.all(`SELECT ${COLUMNS} FROM teller_reports WHERE id = ?`, [id]);
  return row ? reportOf(row) : null;
}

/**
 * Closes an open report; null when it is not open (closed already, or no such report). Only the first of two
 * analysts closing at once wins: the row is changed only while it is open.
 */
export async function closeReport(
  db: DeskDb,
  id: string,
  close: { by: string; fixedBy: string; note: string | null },
  now = new Date(),
): Promise<Report | null> {
  const [row] = await db.all(
    `UPDATE teller_reports SET closed_at = ?, closed_by = ?, fixed_by = ?, close_note = ?
      WHERE id = ? AND closed_at IS NULL RETURNING ${COLUMNS}`,
    [now.toISOString(), close.by, close.fixedBy, close.note, id],
  );
  return row ? reportOf(row) : null;
}
