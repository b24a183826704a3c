-- Tellers' reports of a problem with a served record (desk/reports.ts): the record (kind and key as
-- GET /v1/ops/records answers it), the reason, the note as typed (plain text), the correspondent id it came with
-- and, once an analyst closes it, who, when and the change or version that fixed it. Times are ISO 8601 UTC text.
CREATE TABLE teller_reports (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  record_key TEXT NOT NULL,
  reason TEXT NOT NULL,
  note TEXT NOT NULL,
  correspondent_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  closed_at TEXT,
  closed_by TEXT,
  fixed_by TEXT,
  close_note TEXT
);
-- The desk's queue (open or closed, newest first) and one record's reports.
CREATE INDEX teller_reports_queue ON teller_reports (closed_at IS NULL, created_at);
CREATE INDEX teller_reports_record ON teller_reports (kind, record_key, created_at);
