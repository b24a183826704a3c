import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { constants, gzipSync } from 'node:zlib';
import { openOwnConnection } from '../store/own-connection';
import { startWorker, yieldToLookups } from '../worker-thread';
import type { DiffEntry, StagingProgress } from '../../contract/ops-changes';
import { diffRowOf } from './diff';
import { stageChange, type StagedChange } from './prepare';
import type { DiffWriterJob, DiffWriterMessage, DiffWriterReply } from './diff-writer';
import type { StageJob, StageMessage } from './stage-in-worker';

// A worker thread of the operations desk: stages one change (prepare.ts, stageChange) on the machine's other
// core, at a lower priority than the lookups, so the event loop that answers them only writes the difference's
// entries. It reads the served data set through its own connection to the store. Entries go out in batches as
// desk_diff rows, to a writer thread of its own on a SQLite store (diff-writer.ts), else to the event loop; when
// the writer falls behind by a few batches this thread waits (Atomics on a shared counter), so the batches in
// flight never hold more than a few tens of thousands of entries.

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
 * compete with the lookups at full priority): one gzip member per GZIP_MEMBER_BYTES, read by gunzip as one stream.
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

/** Batches sent to the writer and not yet written before this thread waits (a batch: prepare.ts's ENTRY_BATCH). */
const BATCHES_AHEAD = 16;
/** How long a writer may leave a batch unwritten: twice the writer thread's busy timeout (diff-writer.ts). */
const WRITER_SILENT_MS = 60_000;

/**
 * Takes a place for one more batch on a writer's counter (`counter[0]`: batches sent and not yet written),
 * waiting while `ahead` are (Atomics: the writer notifies as it writes). `stopped` gives the reason a writer
 * failed, and ends the wait; a writer silent for WRITER_SILENT_MS ends it too.
 */
function takeRoom(counter: Int32Array, ahead: number, stopped: () => string | null = () => null) {
  const since = Date.now();
  for (let now = Atomics.load(counter, 0); now >= ahead && !stopped(); now = Atomics.load(counter, 0)) {
    // A writer that stopped without saying so (its thread gone) would hold this thread here for good.
    if (Date.now() - since > WRITER_SILENT_MS) throw new Error("the difference's writer stopped answering");
    Atomics.wait(counter, 0, now, 1000);
  }
  const reason = stopped();
  if (reason !== null) throw new Error(reason);
  Atomics.add(counter, 0, 1);
}

/**
 * The writer thread of a SQLite store (diff-writer.ts): this thread reads, validates and diffs while it writes the
 * entries, the change's progress and the kept file through its own connection.
 */
function sqliteWriter(target: { file: string; changeId: string }) {
  const counters = new Int32Array(new SharedArrayBuffer(8));
  const job: DiffWriterJob = { ...target, counters: counters.buffer as SharedArrayBuffer };
  const thread = startWorker(new URL('./diff-writer.js', import.meta.url), job);
  const send = (message: DiffWriterMessage) => thread.postMessage(message);
  let failure: string | null = null;
  const ended = new Promise<void>((resolve, reject) => {
    thread.on('message', (reply: DiffWriterReply) => {
      if (reply.type === 'ended') return resolve();
      failure = `writing the difference: ${reply.message}`;
      reject(new Error(failure));
    });
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the difference's writer stopped (exit code ${code})`)));
  });
  ended.catch(() => {}); // told at end(); a failure meanwhile also stops write() below
  // The writer's reply, when this thread has had a turn to read it; the shared flag as soon as it is set.
  const stopped = () => failure ?? (Atomics.load(counters, 1) === 1 ? 'writing the difference failed' : null);
  return {
    write(entries: DiffEntry[]) {
      takeRoom(counters, BATCHES_AHEAD, stopped);
      send({ type: 'entries', entries });
    },
    progress: (progress: StagingProgress) => send({ type: 'progress', progress: JSON.stringify(progress) }),
    /** After the last entries: the kept file written, the writer's connection closed. */
    end(keep?: Uint8Array): Promise<void> {
      send({ type: 'end', keep });
      return ended;
    },
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
            takeRoom(inFlight, job.batchesAhead);
            post({ type: 'entries', rows: entries.map(diffRowOf) });
          }
        : undefined,
  });
  let keptGz: Uint8Array | 'written' | undefined = job.keepFile ? keptGzip(staged.kept) : undefined;
  if (writer) {
    await writer.end(keptGz);
    if (keptGz) keptGz = 'written';
  }
  post({ type: 'done', staged: { ...staged, baseVersion: version, keptGz } });
} catch (error) {
  post({ type: 'failed', message: (error as Error).stack ?? String(error) });
}
