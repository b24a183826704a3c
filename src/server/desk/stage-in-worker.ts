import type { ChangeKind, StagingProgress } from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';
import type { FileSource } from '../importer/layouts';
import type { LookupStore, StoreSource } from '../store/store';
import { runWorker } from '../worker-thread';
import { DEFAULTS } from '../config';
import { diffRowOf, type DiffRow } from './diff';
import { stageChange, type StageOptions, type StagedChange } from './prepare';

// Staging on the machine's other core (stage-worker.ts) for a large file; a small one is staged in this thread
// (a worker's start costs more than its rows). Either way the same stageChange runs, and the difference's
// entries reach `onRows` as desk_diff rows, in order, one batch at a time. In the worker the served data set is
// read through the worker's own connection to the store, so the event loop answering lookups neither reads it
// nor copies it; the worker's heap is bounded (OPS_STAGE_HEAP_MB).

/**
 * The staging worker's young generation: a million rows make short-lived cells, records and entries, and a larger
 * nursery collects them less often and promotes fewer of them to the old generation (docs/benchmarks/README.md).
 */
const STAGE_YOUNG_GENERATION_MB = 96;

/** Files from this size (bytes) are staged in a worker. */
export const STAGE_IN_WORKER_FROM_BYTES = 4 * 1024 * 1024;
const BATCHES_AHEAD = 4;

/** What a change is staged against: the served data set as read (and its version), or the store to read it from. */
export type ServedInput = { dataSet: DataSet; version: string } | LookupStore;

export interface StageJob {
  kind: ChangeKind;
  source: FileSource;
  fileName: string;
  /** The served data set, or where the worker reads it. */
  served: { dataSet: DataSet; version: string } | { store: StoreSource };
  options: Omit<StageOptions, 'onProgress' | 'onEntries'> & { onEntries?: true };
  /** A SQLite store: the worker writes the entries into desk_diff itself, through its own connection. */
  writeTo?: { file: string; changeId: string };
  /** Keep the file: the worker compresses it (and with writeTo, stores it in desk_files itself). */
  keepFile?: boolean;
  inFlight: SharedArrayBuffer;
  batchesAhead: number;
}

/**
 * A staged change and the data version it was staged against; staged in a worker with keepFile, its file's
 * gzip copy, or 'written' where the worker stored it in desk_files itself.
 */
export type StagedAgainst = StagedChange & { baseVersion: string; keptGz?: Uint8Array | 'written' };

export type StageMessage =
  | { type: 'progress'; progress: StagingProgress; kept: boolean }
  | { type: 'entries'; rows: DiffRow[] }
  | { type: 'done'; staged: StagedAgainst }
  | { type: 'failed'; message: string };

export interface StageInput {
  kind: ChangeKind;
  source: FileSource;
  fileName: string;
  served: ServedInput;
  /** The file's size in bytes (where to stage it); `inWorker` decides instead when given. */
  bytes: number;
  inWorker?: boolean;
  /** The worker's heap limit, MB (OPS_STAGE_HEAP_MB). */
  heapMb?: number;
  /** A worker compresses the kept file on its own thread (StagedAgainst.keptGz). */
  keepFile?: boolean;
  options: Omit<StageOptions, 'onEntries'>;
  /** The entries as rows, in order; the next batch waits for the returned promise. */
  onRows?: (rows: DiffRow[]) => Promise<void>;
  /**
   * With a SQLite store, staged in a worker: the worker writes the entries into desk_diff under this change id
   * itself (its own connection), and `onRows` is not called — the event loop answering lookups writes nothing.
   */
  writeToSqlite?: { file: string; changeId: string };
}

const isStore = (served: ServedInput): served is LookupStore => 'readDataSet' in served;

export async function stage(input: StageInput): Promise<StagedAgainst> {
  const { onRows, served } = input;
  const inWorker = input.inWorker ?? input.bytes >= STAGE_IN_WORKER_FROM_BYTES;
  if (!inWorker) {
    const { dataSet, version } = isStore(served) ? await served.readDataSet() : served;
    let writing = Promise.resolve();
    const staged = await stageChange(input.kind, input.source, input.fileName, dataSet, {
      ...input.options,
      onEntries: onRows ? (entries) => void (writing = writing.then(() => onRows(entries.map(diffRowOf)))) : undefined,
    });
    await writing;
    return { ...staged, baseVersion: version };
  }
  const { onProgress, ...options } = input.options;
  const inFlight = new SharedArrayBuffer(4);
  const counter = new Int32Array(inFlight);
  const heapMb = input.heapMb ?? DEFAULTS.OPS_STAGE_HEAP_MB;
  const job: StageJob = {
    kind: input.kind,
    source: input.source,
    fileName: input.fileName,
    served: !isStore(served) ? served : served.source ? { store: served.source } : await served.readDataSet(),
    options: { ...options, onEntries: onRows ? true : undefined },
    writeTo: onRows ? input.writeToSqlite : undefined,
    keepFile: input.keepFile,
    inFlight,
    batchesAhead: BATCHES_AHEAD,
  };
  let writing = Promise.resolve();
  return runWorker<StagedAgainst, StageMessage>(
    new URL('./stage-worker.js', import.meta.url),
    job,
    'staging',
    (message, outcome) => {
      if (message.type === 'progress') onProgress?.(message.progress, message.kept);
      else if (message.type === 'entries')
        writing = writing
          .then(async () => {
            await onRows!(message.rows);
            Atomics.sub(counter, 0, 1);
            Atomics.notify(counter, 0);
          })
          .catch((error: Error) => outcome.reject(error));
      // Staged once the entries it sent are written (the worker itself is done).
      else if (message.type === 'done') outcome.resolve(writing.then(() => message.staged));
      else outcome.reject(new Error(`staging failed: ${message.message}`));
    },
    {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: STAGE_YOUNG_GENERATION_MB },
      onError: (error) =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error(
              `staging needs more memory than OPS_STAGE_HEAP_MB (${heapMb} MB) allows: raise it, or split the file`,
            )
          : error,
    },
  );
}
