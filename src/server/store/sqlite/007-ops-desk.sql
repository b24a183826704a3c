-- The operations desk (src/server/desk/): staged changes with their validation problems and difference against
-- the published data, the published versions (with a compressed snapshot for rollback) and the ops audit trail.
-- In the database, not in process memory: any instance on the same database sees every change. Times are ISO
-- 8601 UTC text (they sort as they compare); JSON columns are text.

CREATE TABLE desk_changes (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  countries TEXT NOT NULL DEFAULT '',
  file_name TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  rows_read INTEGER NOT NULL DEFAULT 0,
  rows_valid INTEGER NOT NULL DEFAULT 0,
  rows_bad INTEGER NOT NULL DEFAULT 0,
  problem_count INTEGER NOT NULL DEFAULT 0,
  summary TEXT,
  by_bank TEXT,
  rule_counts TEXT,
  base_version TEXT NOT NULL DEFAULT '',
  rollback_of INTEGER,
  staged_by TEXT NOT NULL,
  staged_via TEXT NOT NULL,
  staged_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  decided_by TEXT,
  decided_at TEXT,
  comment TEXT,
  progress TEXT,
  failure TEXT,
  file_gz BLOB
);
CREATE INDEX desk_changes_status ON desk_changes (status, updated_at);
CREATE INDEX desk_changes_staged_at ON desk_changes (staged_at);

CREATE TABLE desk_problems (
  change_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  row_number INTEGER,
  column_name TEXT,
  value TEXT,
  message TEXT NOT NULL,
  rule TEXT NOT NULL,
  PRIMARY KEY (change_id, seq)
) WITHOUT ROWID;
CREATE INDEX desk_problems_rule ON desk_problems (change_id, rule, seq);

-- Diff pages filter by operation, country and bank and page in file order: each filter combination is an index
-- range, so a page costs its own rows whatever the change's size.
CREATE TABLE desk_diff (
  change_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  op TEXT NOT NULL,
  country TEXT NOT NULL,
  bank_code TEXT,
  key_parts TEXT NOT NULL,
  before_fields TEXT,
  after_fields TEXT,
  changed_fields TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (change_id, seq)
) WITHOUT ROWID;
CREATE INDEX desk_diff_op ON desk_diff (change_id, op, country, bank_code, seq);
CREATE INDEX desk_diff_country ON desk_diff (change_id, country, bank_code, seq);

CREATE TABLE desk_versions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  change_id TEXT,
  staged_by TEXT,
  approved_by TEXT,
  published_at TEXT NOT NULL,
  file_name TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  rows INTEGER NOT NULL,
  countries TEXT NOT NULL DEFAULT '',
  summary TEXT,
  data_version TEXT NOT NULL,
  snapshot_gz BLOB
);
CREATE INDEX desk_versions_kind ON desk_versions (kind, id);

CREATE TABLE ops_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  via TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  detail TEXT
);
CREATE INDEX ops_audit_at ON ops_audit (at);
CREATE INDEX ops_audit_action ON ops_audit (action, at);
CREATE INDEX ops_audit_actor ON ops_audit (actor, at);
