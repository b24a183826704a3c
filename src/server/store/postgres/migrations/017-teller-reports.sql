-- Tellers' reports of a problem with a served record, as in SQLite (019-teller-reports.sql); one schema for both
-- stores.
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
CREATE INDEX teller_reports_queue ON teller_reports ((closed_at IS NULL), created_at);
CREATE INDEX teller_reports_record ON teller_reports (kind, record_key, created_at);
