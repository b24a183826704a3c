import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { constants, gzipSync } from 'node:zlib';
import { openOwnConnection } from '../store/own-connection';
import { yieldToLookups } from '../worker-thread';
import Database from 'better-sqlite3';
import type { DiffEntry, StagingProgress } from '../../contract/ops-changes';
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

/**
 * Entries written in one transaction: fewer commits write the indexes' pages fewer times. A transaction holds the
 * write lock about 0.1 s: a rare write of the event loop meanwhile (an audit line, a session touched) waits that long.
 */
const ENTRIES_PER_TRANSACTION = 10_000;
/** The change's progress kept on its row at most this often (ms), for a poll from any instance. */
const PROGRESS_EVERY_MS = 500;

/**
 * Writes the entries into desk_diff, and the change's progress onto its row, through this thread's own
 * connection (a SQLite store): the event loop that answers lookups writes nothing while a change is staged, so
 * it never waits for this thread's write lock.
 */
function sqliteWriter(target: { file: string; changeId: string }) {
  const db = new Database(target.file, { timeout: 30_000 });
  const insert = db.prepare(`INSERT INTO desk_diff (${DIFF_COLUMNS.map((c) => c.replace(/:int$/, '')).join(', ')})
    VALUES (${DIFF_COLUMNS.map(() => '?').join(', ')})`);
  const progressOf = db.prepare(`UPDATE desk_changes SET progress = ? WHERE id = ? AND status = 'validating'`);
  let seq = 0;
  let pending: DiffEntry[] = [];
  let progressAt = 0;
  const commit = db.transaction((entries: DiffEntry[]) => {
    for (const entry of entries) insert.run(target.changeId, seq++, ...diffRowOf(entry));
  });
  const flush = () => {
    if (pending.length) commit(pending);
    pending = [];
  };
  return {
    write(entries: DiffEntry[]) {
      for (const entry of entries) pending.push(entry);
      if (pending.length >= ENTRIES_PER_TRANSACTION) flush();
    },
    progress(progress: StagingProgress) {
      if (Date.now() - progressAt < PROGRESS_EVERY_MS) return;
      progressAt = Date.now();
      progressOf.run(JSON.stringify(progress), target.changeId);
    },
    keep: (gz: Buffer) => db.prepare(KEEP_FILE_SQL).run(target.changeId, gz),
    /** The last entries written (before the file is compressed and kept). */
    close: flush,
    end: () => db.close(),
  };
}

try {
  const { dataSet, version } = await servedOf(job.served);
  const { onEntries: wanted, ...options } = job.options;
  const writer = wanted && job.writeTo ? sqliteWriter(job.writeTo) : null;
  const staged = await stageChange(job.kind, job.source, job.fileName, dataSet, {
    ...options,
    onProgress: (progress) => {
      writer?.progress(progress);
      post({ type: 'progress', progress, kept: writer !== null });
    },
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
  writer?.close();
  let keptGz: Uint8Array | 'written' | undefined;
  if (job.keepFile) {
    const gz = keptGzip(staged.kept);
    if (writer) {
      writer.keep(gz);
      keptGz = 'written';
    } else keptGz = gz;
  }
  writer?.end();
  post({ type: 'done', staged: { ...staged, baseVersion: version, keptGz } });
} catch (error) {
  post({ type: 'failed', message: (error as Error).stack ?? String(error) });
}
