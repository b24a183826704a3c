-- A published version's snapshot in a table of its own, written by the publishing worker through its own
-- connection, as in SQLite (010-desk-snapshots.sql); one schema for both stores.
CREATE TABLE desk_snapshots (
  id BIGSERIAL PRIMARY KEY,
  snapshot_gz BYTEA NOT NULL
);
ALTER TABLE desk_versions ADD COLUMN snapshot_id BIGINT REFERENCES desk_snapshots (id);
INSERT INTO desk_snapshots (id, snapshot_gz) SELECT id, snapshot_gz FROM desk_versions WHERE snapshot_gz IS NOT NULL;
SELECT setval(pg_get_serial_sequence('desk_snapshots', 'id'), COALESCE((SELECT max(id) FROM desk_snapshots), 0) + 1, false);
UPDATE desk_versions SET snapshot_id = id WHERE snapshot_gz IS NOT NULL;
ALTER TABLE desk_versions DROP COLUMN snapshot_gz;
