-- A staged change's kept file in a table of its own, as in SQLite (009-desk-files.sql: there an UPDATE of a
-- change rewrote its whole row, the file included); one schema for both stores.
CREATE TABLE desk_files (
  change_id TEXT PRIMARY KEY REFERENCES desk_changes (id),
  file_gz BYTEA NOT NULL
);
INSERT INTO desk_files (change_id, file_gz) SELECT id, file_gz FROM desk_changes WHERE file_gz IS NOT NULL;
ALTER TABLE desk_changes DROP COLUMN file_gz;
