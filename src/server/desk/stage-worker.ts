import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { constants, gzipSync } from 'node:zlib';
import { openOwnConnection } from '../store/own-connection';
import { yieldToLookups } from '../worker-thread';
import Database from 'better-sqlite3';
import type { DiffEntry } from '../../contract/ops-changes';
import { DIFF_COLUMNS, diffRowOf } from './diff';
import { stageChange, type StagedChange } from './prepare';
import { KEEP_FILE_SQL } from './kept-file';
import type { StageJob, StageMessage } from './stage-in-worker';

// A worker thread of the operations desk: stages one change (prepare.ts, stageChange) on the machine's other
// core, at a lower priority than the lookups, so the event loop that answers them only writes the difference's
// entries. It reads the served data set through its own connection to the store. Entries go out in batches as
// desk_diff rows; when the writer falls behind by `batchesAhead` batches this thread waits (Atomics on the shared
// counter), so the batches in flight never hold more than a few thousand entries.

yieldToLookups();
const job = workerData as StageJob;
const post = (message: StageMessage) => parentPort!.postMessage(message);
const inFlight = new Int32Array(job.inFlight);

async function servedOf(served: StageJob['served']) {
  if (!('store' in served)) return served;
  const store = openOwnConnection(served.store);
  try {
    return await store.readDataSet();
  } finally {
    await store.close();
  }
}

const GZIP_MEMBER_BYTES = 8 * 1024 * 1024;

/**
 * The kept file gzip-compressed on this thread (zlib's async streams would run on libuv's pool, whose threads
 * compete with the lookups at full priority): one gzip member per 8 MB, which gunzip reads as one stream.
 */
function keptGzip(kept: StagedChange['kept']): Buffer {
  const parts: Buffer[] = [];
  const pack = (chunk: Uint8Array) => parts.push(gzipSync(chunk, { level: constants.Z_BEST_SPEED }));
  if ('bytes' in kept) {
    for (let at = 0; at < kept.bytes.byteLength; at += GZIP_MEMBER_BYTES)
      pack(kept.bytes.subarray(at, at + GZIP_MEMBER_BYTES));
  } else {
    const fd = openSync(kept.path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(GZIP_MEMBER_BYTES);
      for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) pack(buffer.subarray(0, n));
    } finally {
      closeSync(fd);
    }
  }
  return Buffer.concat(parts);
}

/** Writes batches of entries into desk_diff through this thread's own connection (a SQLite store). */
function sqliteWriter(target: { file: string; changeId: string }) {
  const db = new Database(target.file, { timeout: 30_000 });
  const insert = db.prepare(`INSERT INTO desk_diff (${DIFF_COLUMNS.map((c) => c.replace(/:int$/, '')).join(', ')})
    VALUES (${DIFF_COLUMNS.map(() => '?').join(', ')})`);
  let seq = 0;
  const write = db.transaction((entries: DiffEntry[]) => {
    for (const entry of entries) insert.run(target.changeId, seq++, ...diffRowOf(entry));
  });
  const keep = (gz: Buffer) => db.prepare(KEEP_FILE_SQL).run(target.changeId, gz);
  return { write, keep, close: () => db.close() };
}

try {
  const { dataSet, version } = await servedOf(job.served);
  const { onEntries: wanted, ...options } = job.options;
  const writer = wanted && job.writeTo ? sqliteWriter(job.writeTo) : null;
  const staged = await stageChange(job.kind, job.source, job.fileName, dataSet, {
    ...options,
    onProgress: (progress) => post({ type: 'progress', progress }),
    onEntries: writer
      ? (entries) => writer.write(entries)
      : wanted
        ? (entries) => {
            for (let now = Atomics.load(inFlight, 0); now >= job.batchesAhead; now = Atomics.load(inFlight, 0))
              Atomics.wait(inFlight, 0, now, 1000);
            Atomics.add(inFlight, 0, 1);
            post({ type: 'entries', rows: entries.map(diffRowOf) });
          }
        : undefined,
  });
  let keptGz: Uint8Array | 'written' | undefined;
  if (job.keepFile) {
    const gz = keptGzip(staged.kept);
    if (writer) {
      writer.keep(gz);
      keptGz = 'written';
    } else keptGz = gz;
  }
  writer?.close();
  post({ type: 'done', staged: { ...staged, baseVersion: version, keptGz } });
} catch (error) {
  post({ type: 'failed', message: (error as Error).stack ?? String(error) });
}
