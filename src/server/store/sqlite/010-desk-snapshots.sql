-- A published version's snapshot in a table of its own, written by the publishing worker through its own
-- connection: inserting the 40 MB snapshot of a million-row version into desk_versions on the event loop cost
-- 0.33 s there, and copying it over from the worker 0.1 s more, when an approval returned
-- (docs/benchmarks/staging.md). A version points at its snapshot; the retention deletes both.
CREATE TABLE desk_snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  snapshot_gz BLOB NOT NULL
);
ALTER TABLE desk_versions ADD COLUMN snapshot_id INTEGER REFERENCES desk_snapshots (id);
INSERT INTO desk_snapshots (id, snapshot_gz) SELECT id, snapshot_gz FROM desk_versions WHERE snapshot_gz IS NOT NULL;
UPDATE desk_versions SET snapshot_id = id WHERE snapshot_gz IS NOT NULL;
ALTER TABLE desk_versions DROP COLUMN snapshot_gz;
