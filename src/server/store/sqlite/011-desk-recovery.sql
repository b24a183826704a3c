-- A change being staged or published is held by one desk engine (desk/recovery.ts): its owner renews a lease
-- while it works, so a server starting after a crash tells an interrupted staging or publish from one another
-- instance is still running. A publish's data swap records its change in the swap's own transaction
-- (desk_swaps): a publish interrupted after that commit is completed, one interrupted before it is released.
ALTER TABLE desk_changes ADD COLUMN lease_owner TEXT;
ALTER TABLE desk_changes ADD COLUMN lease_until TEXT;
-- The approval being published (who, through what, comment, confirmRemovals), kept while the change is approved.
ALTER TABLE desk_changes ADD COLUMN approval TEXT;
-- The uploaded file the staging reads, removed when the staging is found interrupted.
ALTER TABLE desk_changes ADD COLUMN upload_path TEXT;
-- The change whose publish kept the snapshot: one an interrupted publish kept without its version is found by it.
ALTER TABLE desk_snapshots ADD COLUMN change_id TEXT;
CREATE INDEX desk_snapshots_change ON desk_snapshots (change_id);
CREATE TABLE desk_swaps (
  change_id TEXT PRIMARY KEY,
  data_version TEXT NOT NULL,
  swapped_at TEXT NOT NULL
);
