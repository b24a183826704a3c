/**
 * Keeps a change's file (gzip-compressed) in desk_files, replacing an earlier copy: parameters change id, bytes.
 * The same statement on both stores, and from the staging worker's own SQLite connection. The file has a table
 * of its own: SQLite writes a whole row again on any UPDATE, and a change's row is updated with each step.
 */
export const KEEP_FILE_SQL = `INSERT INTO desk_files (change_id, file_gz) VALUES (?, ?)
  ON CONFLICT (change_id) DO UPDATE SET file_gz = excluded.file_gz`;
