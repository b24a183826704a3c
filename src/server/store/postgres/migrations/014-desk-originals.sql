-- The file a maker uploaded, as uploaded, as in SQLite (016-desk-originals.sql); one schema for both stores.
CREATE TABLE desk_originals (
  change_id TEXT PRIMARY KEY REFERENCES desk_changes (id),
  file_gz BYTEA NOT NULL
);
