import type { ChangeKind, StagingProgress } from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';
import type { FileSource } from '../importer/layouts';
import { startWorker } from '../worker-thread';
import { diffRowOf, type DiffRow } from './diff';
import { stageChange, type StageOptions, type StagedChange } from './prepare';

// Staging on the machine's other core (stage-worker.ts) for a large file; a small one is staged in this thread
// (a worker's start and the served data set's copy cost more than its rows). Either way the same stageChange
// runs, and the difference's entries reach `onRows` as desk_diff rows, in order, one batch at a time.

/** Files from this size (bytes) are staged in a worker. */
export const STAGE_IN_WORKER_FROM_BYTES = 4 * 1024 * 1024;
const BATCHES_AHEAD = 4;

export interface StageJob {
  kind: ChangeKind;
  source: FileSource;
  fileName: string;
  served: DataSet;
  options: Omit<StageOptions, 'onProgress' | 'onEntries'> & { onEntries?: true };
  inFlight: SharedArrayBuffer;
  batchesAhead: number;
}

export type StageMessage =
  | { type: 'progress'; progress: StagingProgress }
  | { type: 'entries'; rows: DiffRow[] }
  | { type: 'done'; staged: StagedChange }
  | { type: 'failed'; message: string };

export interface StageInput {
  kind: ChangeKind;
  source: FileSource;
  fileName: string;
  served: DataSet;
  /** The file's size in bytes (where to stage it); `inWorker` decides instead when given. */
  bytes: number;
  inWorker?: boolean;
  options: Omit<StageOptions, 'onEntries'>;
  /** The entries as rows, in order; the next batch waits for the returned promise. */
  onRows?: (rows: DiffRow[]) => Promise<void>;
}

export async function stage(input: StageInput): Promise<StagedChange> {
  const { onRows } = input;
  const inWorker = input.inWorker ?? input.bytes >= STAGE_IN_WORKER_FROM_BYTES;
  if (!inWorker) {
    let writing = Promise.resolve();
    const staged = await stageChange(input.kind, input.source, input.fileName, input.served, {
      ...input.options,
      onEntries: onRows ? (entries) => void (writing = writing.then(() => onRows(entries.map(diffRowOf)))) : undefined,
    });
    await writing;
    return staged;
  }
  const { onProgress, ...options } = input.options;
  const inFlight = new SharedArrayBuffer(4);
  const counter = new Int32Array(inFlight);
  const job: StageJob = {
    kind: input.kind,
    source: input.source,
    fileName: input.fileName,
    served: input.served,
    options: { ...options, onEntries: onRows ? true : undefined },
    inFlight,
    batchesAhead: BATCHES_AHEAD,
  };
  const worker = startWorker(new URL('./stage-worker.js', import.meta.url), job);
  return new Promise<StagedChange>((resolve, reject) => {
    let writing = Promise.resolve();
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: StageMessage) => {
      if (message.type === 'progress') onProgress?.(message.progress);
      else if (message.type === 'entries')
        writing = writing
          .then(async () => {
            await onRows!(message.rows);
            Atomics.sub(counter, 0, 1);
            Atomics.notify(counter, 0);
          })
          .catch((error: Error) => settle(() => reject(error)));
      else if (message.type === 'done') void writing.then(() => settle(() => resolve(message.staged)));
      else settle(() => reject(new Error(`staging failed: ${message.message}`)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => {
      if (code !== 0) settle(() => reject(new Error(`the staging worker stopped (exit code ${code})`)));
    });
  });
}
