import type { ChangeKind } from '../../contract/ops-changes';
import type { RecordFields, RecordHistoryEntry } from '../../contract/ops-records';
import type { DeskDb } from './db';
import { json, wordsOf } from './repositories/rows';

// Each published record's whole life: when a version is recorded, every
// entry of its change's difference (desk_diff) is indexed by the record's kind and natural key, in the same
// transaction. A record's history then reads those rows with the entry's fields before and after (desk_diff)
// and the change's maker, checker, comment, file name and SHA-256 (desk_changes): both are kept when the
// version itself and its snapshot go past DESK_VERSIONS_KEPT. A rollback is a change like any other, diffed
// against what was served: its entries are the records it puts back, changed back or removes.

/** One statement for both engines: the difference entries of the change, as the version's history rows. */
const WRITE_SQL = `INSERT INTO desk_record_history (kind, record_key, version_id, change_id, seq, op)
  SELECT ?, key_parts, ?, change_id, seq, op FROM desk_diff WHERE change_id = ?`;

/** A code change (desk/code-changes.ts) is in the old key's life too: its last entry, the code before → after. */
const CODE_CHANGE_SQL = `INSERT INTO desk_record_history (kind, record_key, version_id, change_id, seq, op)
  SELECT ?, previous_key, ?, change_id, seq, op FROM desk_diff WHERE change_id = ? AND previous_key IS NOT NULL`;

const READ_SQL = `SELECT h.version_id, h.op, c.decided_at, c.staged_by, c.decided_by, c.comment, c.file_name, c.sha256,
    d.before_fields, d.after_fields, d.changed_fields
  FROM desk_record_history h
  JOIN desk_changes c ON c.id = h.change_id
  JOIN desk_diff d ON d.change_id = h.change_id AND d.seq = h.seq
  WHERE h.kind = ? AND h.record_key = ?
  ORDER BY h.version_id DESC, h.seq DESC`;

/** Writes the history of a published version (on the publish's transaction): every record its change touched. */
export async function recordHistoryOf(tx: DeskDb, kind: ChangeKind, versionId: number, changeId: string) {
  await tx.run(WRITE_SQL, [kind, versionId, changeId]);
  await tx.run(CODE_CHANGE_SQL, [kind, versionId, changeId]);
}

const OPS = { added: 'add', changed: 'change', removed: 'remove' } as const;

/** A record's history, newest first (within one version, the difference's order reversed). */
export async function readRecordHistory(db: DeskDb, kind: ChangeKind, parts: string[]): Promise<RecordHistoryEntry[]> {
  const rows = await db.all(READ_SQL, [kind, JSON.stringify(parts)]);
  return rows.map((r) => ({
    versionId: Number(r.version_id),
    op: OPS[r.op as keyof typeof OPS],
    publishedAt: String(r.decided_at),
    stagedBy: (r.staged_by as string | null) ?? null,
    approvedBy: (r.decided_by as string | null) ?? null,
    comment: (r.comment as string | null) ?? null,
    fileName: String(r.file_name),
    fileSha256: String(r.sha256),
    before: json<RecordFields>(r.before_fields),
    after: json<RecordFields>(r.after_fields),
    changedFields: wordsOf(r.changed_fields),
  }));
}
