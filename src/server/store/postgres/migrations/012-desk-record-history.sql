-- Each published record's life, as in SQLite (014-desk-record-history.sql); one schema for both stores.
CREATE TABLE desk_record_history (
  kind TEXT NOT NULL,
  record_key TEXT NOT NULL,
  version_id INTEGER NOT NULL,
  change_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  op TEXT NOT NULL,
  PRIMARY KEY (kind, record_key, version_id, seq)
);
