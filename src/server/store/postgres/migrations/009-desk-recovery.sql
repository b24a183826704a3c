-- Leases on the changes being staged or published, and the record of each publish's data swap, as in SQLite
-- (011-desk-recovery.sql); one schema for both stores.
ALTER TABLE desk_changes ADD COLUMN lease_owner TEXT;
ALTER TABLE desk_changes ADD COLUMN lease_until TEXT;
ALTER TABLE desk_changes ADD COLUMN approval TEXT;
ALTER TABLE desk_changes ADD COLUMN upload_path TEXT;
ALTER TABLE desk_snapshots ADD COLUMN change_id TEXT;
CREATE INDEX desk_snapshots_change ON desk_snapshots (change_id);
CREATE TABLE desk_swaps (
  change_id TEXT PRIMARY KEY,
  data_version TEXT NOT NULL,
  swapped_at TEXT NOT NULL
);
