/**
 * Keeps a change's file (gzip-compressed) in desk_files, replacing an earlier copy: parameters change id, bytes.
 * The same statement on both stores, and from the staging worker's own SQLite connection. The file has a table
 * of its own: SQLite writes a whole row again on any UPDATE, and a change's row is updated with each step.
 */
export const KEEP_FILE_SQL = `INSERT INTO desk_files (change_id, file_gz) VALUES (?, ?)
  ON CONFLICT (change_id) DO UPDATE SET file_gz = excluded.file_gz`;

/**
 * Keeps a published version's snapshot (gzip-compressed) in desk_snapshots: parameters the bytes and the change
 * whose publish keeps it; returns its id.
 * Written where the version is made, the publishing worker's own connection for a large change, so the event
 * loop answering lookups neither copies nor writes a large version; desk_versions points at it.
 */
export const KEEP_SNAPSHOT_SQL = 'INSERT INTO desk_snapshots (snapshot_gz, change_id) VALUES (?, ?) RETURNING id';
