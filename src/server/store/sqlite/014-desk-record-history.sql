-- Each published record's life (desk/record-history.ts): one row per record a published version added, changed
-- or removed, written in the publish's transaction. The record is its kind and natural key (the key parts as
-- JSON, as desk_diff keeps them); the entry's fields before and after are the change's difference entry
-- (desk_diff, change_id and seq), and who staged, approved and commented, the file and its SHA-256 are the
-- change's (desk_changes). Neither is removed when a version past DESK_VERSIONS_KEPT goes with its snapshot.
CREATE TABLE desk_record_history (
  kind TEXT NOT NULL,
  record_key TEXT NOT NULL,
  version_id INTEGER NOT NULL,
  change_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  op TEXT NOT NULL,
  PRIMARY KEY (kind, record_key, version_id, seq)
) WITHOUT ROWID;
