import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { yieldToLookups } from '../worker-thread';
import type { DiffEntry } from '../../contract/ops-changes';
import { DIFF_COLUMNS, diffRowOf } from './diff';
import { KEEP_FILE_SQL } from './kept-file';

// The staging worker's writer (stage-worker.ts), on a thread of its own so that reading, validating and diffing
// the file go on while the entries already made are written: a change's difference is written into desk_diff,
// its progress onto its row, and its kept file into desk_files, through this thread's own connection to the
// SQLite store — the event loop that answers lookups writes nothing while a change is staged, so it never waits
// for this write lock. The staging thread sends batches of entries and waits when `BATCHES_AHEAD` are not yet
// written (Atomics on the shared counters: [0] batches in flight, [1] 1 once this thread failed).

export interface DiffWriterJob {
  file: string;
  changeId: string;
  counters: SharedArrayBuffer;
}

export type DiffWriterMessage =
  | { type: 'entries'; entries: DiffEntry[] }
  | { type: 'progress'; progress: string }
  | { type: 'end'; keep?: Uint8Array };

export type DiffWriterReply = { type: 'ended' } | { type: 'failed'; message: string };

/**
 * Entries written in one transaction: fewer commits write the indexes' pages fewer times. A rare write of the
 * event loop meanwhile (an audit line, a session touched) waits for the transaction's write lock.
 */
const ENTRIES_PER_TRANSACTION = 10_000;
/** The change's progress kept on its row at most this often (ms), for a poll from any instance. */
const PROGRESS_EVERY_MS = 500;

yieldToLookups();
const port = parentPort!;
const job = workerData as DiffWriterJob;
const counters = new Int32Array(job.counters);
const db = new Database(job.file, { timeout: 30_000 });
// As the store's own connection (sqlite-store.ts): in WAL mode a commit need not wait for the disk.
db.pragma('synchronous = NORMAL');
const insert = db.prepare(`INSERT INTO desk_diff (${DIFF_COLUMNS.map((c) => c.replace(/:int$/, '')).join(', ')})
  VALUES (${DIFF_COLUMNS.map(() => '?').join(', ')})`);
const progressOf = db.prepare(`UPDATE desk_changes SET progress = ? WHERE id = ? AND status = 'validating'`);
let seq = 0;
let pending: DiffEntry[][] = [];
let pendingRows = 0;
let progressAt = 0;
const commit = db.transaction((batches: DiffEntry[][]) => {
  for (const entries of batches) for (const entry of entries) insert.run(job.changeId, seq++, ...diffRowOf(entry));
});
const flush = () => {
  if (pending.length === 0) return;
  commit(pending);
  Atomics.sub(counters, 0, pending.length);
  Atomics.notify(counters, 0);
  pending = [];
  pendingRows = 0;
};
port.on('message', (message: DiffWriterMessage) => {
  try {
    if (message.type === 'entries') {
      pending.push(message.entries);
      pendingRows += message.entries.length;
      if (pendingRows >= ENTRIES_PER_TRANSACTION) flush();
    } else if (message.type === 'progress') {
      if (Date.now() - progressAt < PROGRESS_EVERY_MS) return;
      progressAt = Date.now();
      progressOf.run(message.progress, job.changeId);
    } else {
      flush();
      if (message.keep) db.prepare(KEEP_FILE_SQL).run(job.changeId, message.keep);
      db.close();
      port.postMessage({ type: 'ended' } satisfies DiffWriterReply);
      port.close();
    }
  } catch (error) {
    Atomics.store(counters, 1, 1);
    Atomics.notify(counters, 0);
    port.postMessage({ type: 'failed', message: (error as Error).stack ?? String(error) } satisfies DiffWriterReply);
    port.close();
  }
});
