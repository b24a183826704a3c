-- The file a maker uploaded, as uploaded (gzip-compressed), where the desk keeps another copy to read the change
-- again: a file read through a layout (XLSX, the public IFSC list, a column mapping) is kept in desk_files as
-- the import format's CSV. A published version's original file is downloaded from here
-- (desk/version-files.ts); it goes with the version when DESK_VERSIONS_KEPT prunes the version's snapshot.
CREATE TABLE desk_originals (
  change_id TEXT PRIMARY KEY REFERENCES desk_changes (id),
  file_gz BLOB NOT NULL
);
