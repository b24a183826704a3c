import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gunzip as gunzipCallback } from 'node:zlib';
import type { ChangeKind } from '../../contract/ops-changes';
import { ProblemError } from '../problems';
import type { DeskDb, Row } from './db';
import type { StagedChange } from './prepare';

// What a published version can be taken away as (routes/v1/ops/versions.ts): the file its maker uploaded, byte
// for byte, and its data in the import format (its snapshot). Both while the version's snapshot is kept: the
// retention (DESK_VERSIONS_KEPT) removes the version, its snapshot and its original file together.
//
// A file in the import format is kept by the desk as it is (desk_files): that copy is the original. A file read
// through a layout (XLSX, the public IFSC list, a column mapping) is kept there as the import format's CSV, so
// its upload is kept beside it, as uploaded (desk_originals).

const gunzip = promisify(gunzipCallback);

/** The upload kept as it is, gzip-compressed, where the desk keeps another form of it (see above). */
export async function keepOriginal(
  db: DeskDb,
  changeId: string,
  source: string | Uint8Array,
  kept: StagedChange['kept'],
): Promise<void> {
  if (typeof source !== 'string' || !('bytes' in kept)) return;
  const chunks: Buffer[] = [];
  await pipeline(createReadStream(source), createGzip(), async (compressed) => {
    for await (const chunk of compressed) chunks.push(chunk as Buffer);
  });
  await db.run(
    `INSERT INTO desk_originals (change_id, file_gz) VALUES (?, ?)
     ON CONFLICT (change_id) DO UPDATE SET file_gz = excluded.file_gz`,
    [changeId, Buffer.concat(chunks)],
  );
}

/**
 * The originals of the versions past the retention (`beyond`: the engine's "FROM desk_versions WHERE …" of
 * them, with its parameters), removed before those versions are.
 */
export const pruneOriginals = (db: DeskDb, beyond: string, params: unknown[]) =>
  db.run(
    `DELETE FROM desk_originals WHERE change_id IN (SELECT change_id ${beyond} AND change_id IS NOT NULL)`,
    params,
  );

export interface KeptVersion {
  id: number;
  kind: ChangeKind;
  changeId: string | null;
  fileName: string;
  sha256: string;
  rollbackOf: number | null;
}

/**
 * A version whose snapshot is kept; a 404 saying why when it is not: never published, or pruned past the
 * retention (version ids are never reused: an id below the highest one was a version once).
 */
export async function keptVersion(db: DeskDb, id: number): Promise<KeptVersion & { snapshotId: number }> {
  const [row] = await db.all(
    `SELECT v.id, v.kind, v.change_id, v.file_name, v.sha256, v.snapshot_id, c.rollback_of
     FROM desk_versions v LEFT JOIN desk_changes c ON c.id = v.change_id WHERE v.id = ?`,
    [id],
  );
  if (!row || row.snapshot_id === null || row.snapshot_id === undefined) {
    const [{ highest }] = await db.all('SELECT max(id) AS highest FROM desk_versions');
    if (row || (highest !== null && Number(highest) > id))
      throw new ProblemError(
        'notFound',
        `Version ${id} is no longer kept: versions past the retention (DESK_VERSIONS_KEPT) are pruned with their snapshot and file. Its records' history stays on their record pages.`,
      );
    throw new ProblemError('notFound', `There is no version ${id}.`);
  }
  return versionOf(row);
}

const versionOf = (row: Row) => ({
  id: Number(row.id),
  kind: row.kind as ChangeKind,
  changeId: (row.change_id as string | null) ?? null,
  fileName: String(row.file_name),
  sha256: String(row.sha256),
  rollbackOf: row.rollback_of === null || row.rollback_of === undefined ? null : Number(row.rollback_of),
  snapshotId: Number(row.snapshot_id),
});

/** The file uploaded for a kept version, as uploaded. */
export async function originalFileOf(db: DeskDb, id: number): Promise<{ fileName: string; bytes: Buffer }> {
  const version = await keptVersion(db, id);
  if (version.changeId === null)
    throw new ProblemError(
      'notFound',
      `Version ${id} is the baseline (the data served before the desk's first change): it has no uploaded file; download its data.csv.`,
    );
  const [row] = await db.all(
    `SELECT coalesce(o.file_gz, f.file_gz) AS file_gz FROM desk_files f
     LEFT JOIN desk_originals o ON o.change_id = f.change_id WHERE f.change_id = ?`,
    [version.changeId],
  );
  if (!row?.file_gz)
    throw new ProblemError(
      'notFound',
      `Version ${id} was published by the import command: the desk kept no file of it; download its data.csv.`,
    );
  return { fileName: version.fileName, bytes: await gunzip(row.file_gz as Buffer) };
}

/** A kept version's data in the import format (its snapshot), and the version. */
export async function versionDataOf(db: DeskDb, id: number): Promise<{ version: KeptVersion; bytes: Buffer }> {
  const version = await keptVersion(db, id);
  const [row] = await db.all('SELECT snapshot_gz FROM desk_snapshots WHERE id = ?', [version.snapshotId]);
  return { version, bytes: await gunzip(row.snapshot_gz as Buffer) };
}

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** The media types a version's file is sent as. */
export const VERSION_FILE_TYPES = [
  ...new Set([...Object.values(CONTENT_TYPES), 'application/octet-stream'].map((t) => t.split(';')[0])),
];

/** The content type a file name's extension says; any other: bytes. */
export const contentTypeOf = (fileName: string) =>
  CONTENT_TYPES[/\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/**
 * An attachment's Content-Disposition (RFC 6266): the name in ASCII (other characters, quotes and backslashes as
 * `_`) and, for any other name, exactly in UTF-8 (filename*).
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return ascii === fileName
    ? `attachment; filename="${fileName}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** Sends `body` as a download named `fileName`: its content type from the name, its Content-Disposition. */
export const sendAttachment = (reply: FastifyReply, fileName: string, body: string | Uint8Array) =>
  reply.type(contentTypeOf(fileName)).header('content-disposition', attachment(fileName)).send(body);
