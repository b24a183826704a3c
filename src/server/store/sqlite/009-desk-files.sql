-- A staged change's kept file in a table of its own. SQLite writes a whole row again on any UPDATE, so a
-- 40 MB file kept in desk_changes was rewritten with every progress or status change of its change: 0.6–0.8 s
-- on the event loop when a million-row change became staged and when it was approved (benchmarks/staging.md).
CREATE TABLE desk_files (
  change_id TEXT PRIMARY KEY REFERENCES desk_changes (id),
  file_gz BLOB NOT NULL
);
INSERT INTO desk_files (change_id, file_gz) SELECT id, file_gz FROM desk_changes WHERE file_gz IS NOT NULL;
ALTER TABLE desk_changes DROP COLUMN file_gz;
