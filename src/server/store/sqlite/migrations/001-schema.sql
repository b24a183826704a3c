-- The SQLite store's schema as of 2026-11-28: the 19 earlier migrations in one file (their reasons are in git's
-- history of src/server/store/sqlite/). A database they made (user_version 19) is taken as having this one
-- (migrate.ts); later changes go in 002-…, numbered as the PostgreSQL tree's.

CREATE TABLE receiving_countries (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  currency TEXT NOT NULL
) STRICT;

CREATE TABLE delivery_modes (
  value INTEGER PRIMARY KEY,
  name TEXT NOT NULL
) STRICT;

CREATE TABLE states (
  country TEXT NOT NULL,
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (country, code)
) STRICT;

CREATE TABLE cities (
  country TEXT NOT NULL,
  state TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (country, state, name)
) STRICT;

CREATE TABLE head_offices (
  code TEXT PRIMARY KEY,
  country TEXT NOT NULL,
  name TEXT NOT NULL,
  network_name TEXT NOT NULL,
  payout_type TEXT NOT NULL CHECK (payout_type IN ('N', 'C', 'O')),
  demo_locations INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX head_offices_country ON head_offices (country, code);

CREATE TABLE head_office_delivery_modes (
  head_office_code TEXT NOT NULL,
  delivery_mode INTEGER NOT NULL,
  PRIMARY KEY (head_office_code, delivery_mode)
) STRICT;

CREATE TABLE head_office_banks (
  head_office_code TEXT NOT NULL,
  bank_code TEXT NOT NULL,
  PRIMARY KEY (head_office_code, bank_code)
) STRICT;

CREATE TABLE bank_branches (
  id INTEGER PRIMARY KEY,
  country TEXT NOT NULL,
  bank_code TEXT NOT NULL,
  bank_name TEXT NOT NULL,
  routing_number TEXT,
  branch_name TEXT NOT NULL,
  address_line1 TEXT,
  address_line2 TEXT,
  city TEXT,
  district TEXT,
  state TEXT,
  state_published TEXT) STRICT;

CREATE INDEX bank_branches_routing ON bank_branches (routing_number);

CREATE TABLE agents (
  id INTEGER PRIMARY KEY,
  agent_code TEXT NOT NULL UNIQUE,
  head_office_code TEXT NOT NULL,
  country TEXT NOT NULL,
  agent_name TEXT NOT NULL,
  address_line1 TEXT,
  address_line2 TEXT,
  city TEXT,
  state TEXT,
  phone_number TEXT
, state_published TEXT) STRICT;

CREATE INDEX agents_order ON agents (country, head_office_code, agent_code);

CREATE INDEX agents_state ON agents (country, state, head_office_code, agent_code);

CREATE TABLE data_sources (
  kind TEXT NOT NULL,
  file TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  rows INTEGER NOT NULL,
  imported_at TEXT NOT NULL
, countries TEXT NOT NULL DEFAULT '') STRICT;

CREATE TABLE data_version (
  only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
  version INTEGER NOT NULL
) STRICT;

CREATE INDEX bank_branches_bank ON bank_branches (country, bank_code);

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
  failure TEXT, lease_owner TEXT, lease_until TEXT, approval TEXT, upload_path TEXT, served_rows TEXT, scope TEXT);

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

CREATE TABLE desk_diff (
  change_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  op TEXT NOT NULL,
  country TEXT NOT NULL,
  bank_code TEXT,
  key_parts TEXT NOT NULL,
  before_fields TEXT,
  after_fields TEXT,
  changed_fields TEXT NOT NULL DEFAULT '', previous_key TEXT, search_text TEXT,
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
  snapshot_id INTEGER REFERENCES desk_snapshots (id), removal_ledger TEXT);

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

CREATE TABLE ops_accounts (
  name TEXT PRIMARY KEY,
  roles TEXT NOT NULL,            -- space-separated: maker checker admin
  password_hash TEXT NOT NULL,    -- scrypt$N$r$p$salt$hash (src/server/desk/passwords.ts)
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
, created_by TEXT, password_set_by TEXT);

CREATE TABLE ops_sessions (
  token_sha256 TEXT PRIMARY KEY,
  account TEXT NOT NULL REFERENCES ops_accounts (name) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
);

CREATE INDEX ops_sessions_account ON ops_sessions (account);

CREATE TABLE desk_files (
  change_id TEXT PRIMARY KEY REFERENCES desk_changes (id),
  file_gz BLOB NOT NULL
);

CREATE TABLE desk_snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  snapshot_gz BLOB NOT NULL
, change_id TEXT);

CREATE INDEX desk_snapshots_change ON desk_snapshots (change_id);

CREATE TABLE desk_swaps (
  change_id TEXT PRIMARY KEY,
  data_version TEXT NOT NULL,
  swapped_at TEXT NOT NULL
);

CREATE TABLE ops_role_grants (
  account TEXT NOT NULL REFERENCES ops_accounts (name) ON DELETE CASCADE,
  role TEXT NOT NULL,             -- maker, checker or admin; the account's roles column holds the same set
  granted_by TEXT,
  granted_at INTEGER,             -- epoch milliseconds
  PRIMARY KEY (account, role)
);

CREATE TABLE desk_record_history (
  kind TEXT NOT NULL,
  record_key TEXT NOT NULL,
  version_id INTEGER NOT NULL,
  change_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  op TEXT NOT NULL,
  PRIMARY KEY (kind, record_key, version_id, seq)
) WITHOUT ROWID;

CREATE TABLE desk_originals (
  change_id TEXT PRIMARY KEY REFERENCES desk_changes (id),
  file_gz BLOB NOT NULL
);

CREATE TABLE desk_change_comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  change_id TEXT NOT NULL,
  at TEXT NOT NULL,
  author TEXT NOT NULL,
  via TEXT NOT NULL,
  body TEXT NOT NULL
);

CREATE INDEX desk_change_comments_by_change ON desk_change_comments (change_id, id);

CREATE TABLE desk_change_quality (
  change_id TEXT PRIMARY KEY,
  report TEXT NOT NULL
);

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

CREATE INDEX teller_reports_queue ON teller_reports (closed_at IS NULL, created_at);

CREATE INDEX teller_reports_record ON teller_reports (kind, record_key, created_at);

INSERT INTO data_version VALUES (1, 0);
