import { isMainThread } from 'node:worker_threads';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gunzipSync, gzip as gzipCallback, gzipSync } from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import { toCsvCell } from '../../contract/csv-cell';
import type { ChangeKind, VersionSummary } from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';
import { KIND_DEFINITIONS } from '../importer/kinds';
import { ChangeNotHeldError, DataSetChangedError, type LookupStore } from '../store/store';
import { runWorker } from '../worker-thread';
import { deskDbOf, type DeskDb } from './db';
import { rowsOfKind } from './diff';
import type { RemovalLedger } from './removal-ledger';
import { KEEP_SNAPSHOT_SQL } from './kept-file';
import { buildChange } from './prepare';
import { keepSources } from './kept-sources';
import type { StoredScope } from './scope';
import { crashPoint } from './recovery';

// Publishing an approved change: the new data set rebuilt from the kept file against what is served, written
// through the store's replaceDataSet with the diffed data version expected (one transaction, which also records
// the swap for the change: recovery.ts), and the snapshot of the kind a rollback restores, kept in
// desk_snapshots. A large change (PUBLISH_IN_WORKER_FROM_GZ_BYTES) is published by a worker thread (publish-worker.ts)
// at a lower priority, through its own connection to the store: the event loop that answers lookups neither
// parses the file, builds the data set, writes it nor makes or keeps its snapshot (it only records the version,
// pointing at the snapshot kept).

const gzipAsync = promisify(gzipCallback);
const gunzipAsync = promisify(gunzipCallback);

// On the main thread zlib runs on libuv's pool (the event loop stays free); in a desk worker it runs on the
// worker's own thread, at the worker's lower priority (the pool's threads are not lowered, and would compete
// with the lookups on a 2-core machine).
const gzip = (data: string | Uint8Array) => (isMainThread ? gzipAsync(data) : Promise.resolve(gzipSync(data)));
const gunzip = (data: Uint8Array) => (isMainThread ? gunzipAsync(data) : Promise.resolve(gunzipSync(data)));

/** The kind's rows of a data set as a file in its import format, gzip-compressed: a version's snapshot. */
export async function snapshotOf(kind: ChangeKind, dataSet: DataSet): Promise<Buffer> {
  const definition = KIND_DEFINITIONS[kind];
  const cells = definition
    .cells(dataSet)
    .map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, toCsvCell(value)])));
  return gzip(stringify(cells, { header: true, columns: [...definition.columns] }));
}

export interface PublishJob {
  /** The change, held by `owner` (recovery.ts): the swap commits only while it still is. */
  changeId: string;
  owner: string;
  leaseMs: number;
  kind: ChangeKind;
  /** The change's kept file (import format), gzip-compressed as kept: unpacked where the rows are read. */
  gz: Uint8Array;
  fileName: string;
  /** The SHA-256 of the file as uploaded: the data sources name it, as the change and its version do. */
  sha256?: string;
  /** Branch countries the change leaves as they were (a rollback's): they keep their source (kept-sources.ts). */
  untouched?: string[];
  /** The data version the change was diffed against: nothing is written if another is served. */
  expectedVersion: string;
  /** The change's scope (scope.ts): the effective file is made again against what is served. */
  scope?: StoredScope | null;
  /** The import command's --skip-invalid: the bad rows are left out instead of refusing the file. */
  skipInvalid?: boolean;
}

/** A version's content: the kind's rows served and their snapshot, kept in desk_snapshots under this id. */
export interface VersionContent {
  rows: number;
  snapshotId: number;
}

export type PublishOutcome =
  | { type: 'published'; next: VersionContent }
  /** Another data version is served: the change is to be diffed again. */
  | { type: 'changed' }
  /** The change no longer validates against the served data. */
  | { type: 'invalid' }
  /** A recovery took the change over (this publisher had stopped renewing its lease): nothing was written. */
  | { type: 'not-held' };

/** The kind's rows of a data set, and their snapshot kept in the store's desk_snapshots (this connection). */
export async function versionContentOf(
  store: LookupStore,
  kind: ChangeKind,
  dataSet: DataSet,
  /** The change whose publish keeps it (recovery.ts finds the ones left without a version by it). */
  changeId: string | null,
): Promise<VersionContent> {
  const [row] = await deskDbOf(store).all(KEEP_SNAPSHOT_SQL, [await snapshotOf(kind, dataSet), changeId]);
  return { rows: rowsOfKind(kind, dataSet), snapshotId: Number(row.id) };
}

type VersionRow = Omit<VersionSummary, 'id' | 'restorable' | 'rollbackOf'> & {
  snapshotId: number;
  /** The removal guard's ledger after this version (removal-ledger.ts); none for a baseline. */
  ledger: RemovalLedger | null;
};

export async function insertVersion(db: DeskDb, v: VersionRow): Promise<number> {
  const [row] = await db.all(
    `INSERT INTO desk_versions (kind, change_id, staged_by, approved_by, published_at, file_name, sha256, rows, countries,
       summary, data_version, snapshot_id, removal_ledger) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      v.kind,
      v.changeId,
      v.stagedBy,
      v.approvedBy,
      v.publishedAt,
      v.fileName,
      v.sha256,
      v.rows,
      v.countries.join(' '),
      v.diff ? JSON.stringify(v.diff) : null,
      v.dataVersion,
      v.snapshotId,
      v.ledger ? JSON.stringify(v.ledger) : null,
    ],
  );
  return Number(row.id);
}

/**
 * Before a kind's first publish (its first version): the data it replaces (e.g. the seed), kept as the kind's
 * baseline version, so even the first change can be rolled back. Kept before the swap, so a publish interrupted
 * after it still has it.
 */
export async function keepBaseline(
  store: LookupStore,
  kind: ChangeKind,
  served: DataSet,
  changeId: string,
  at: string,
): Promise<void> {
  const db = deskDbOf(store);
  const [{ n }] = await db.all('SELECT count(*) AS n FROM desk_versions WHERE kind = ?', [kind]);
  if (Number(n) > 0) return;
  const sources = served.sources.filter((s) => s.kind === kind);
  const content = await versionContentOf(store, kind, served, changeId);
  await insertVersion(db, {
    kind,
    changeId: null,
    stagedBy: null,
    approvedBy: null,
    publishedAt: sources.map((s) => s.importedAt ?? '').sort()[0] || at,
    fileName: sources.map((s) => s.file).join(' ') || '(baseline)',
    sha256: sources.map((s) => s.sha256).join(' '),
    rows: content.rows,
    countries: [...new Set(sources.flatMap((s) => s.countries ?? []))].sort(),
    diff: null,
    dataVersion: '',
    snapshotId: content.snapshotId,
    ledger: null,
  });
}

/** Publishes on this connection (this thread, or the worker's own). */
export async function publishOn(store: LookupStore, job: PublishJob): Promise<PublishOutcome> {
  const { dataSet: served, version } = await store.readDataSet();
  if (version !== job.expectedVersion) return { type: 'changed' };
  const built = await buildChange(job.kind, await gunzip(job.gz), job.fileName, served, {
    scope: job.scope ?? null,
    uploadedSha256: job.sha256,
    skipInvalid: job.skipInvalid,
  });
  if (!built) return { type: 'invalid' };
  const next = keepSources(job.kind, served, built, job.untouched ?? []);
  await keepBaseline(store, job.kind, served, job.changeId, new Date().toISOString());
  crashPoint('publish-before-swap');
  try {
    await store.replaceDataSet(next, {
      expectedVersion: version,
      publishing: { changeId: job.changeId, owner: job.owner, leaseMs: job.leaseMs },
    });
  } catch (error) {
    if (error instanceof DataSetChangedError) return { type: 'changed' };
    if (error instanceof ChangeNotHeldError) return { type: 'not-held' };
    throw error;
  }
  crashPoint('publish-swapped');
  return { type: 'published', next: await versionContentOf(store, job.kind, next, job.changeId) };
}

/** Kept files from this size (bytes, gzip-compressed) are published by a worker thread. */
export const PUBLISH_IN_WORKER_FROM_GZ_BYTES = 1024 * 1024;

export type PublishMessage = { type: 'outcome'; outcome: PublishOutcome } | { type: 'failed'; message: string };

export async function publishChange(
  store: LookupStore,
  job: PublishJob,
  inWorker = job.gz.byteLength >= PUBLISH_IN_WORKER_FROM_GZ_BYTES,
): Promise<PublishOutcome> {
  if (!inWorker || !store.source) return publishOn(store, job);
  return runWorker<PublishOutcome, PublishMessage>(
    new URL('./publish-worker.js', import.meta.url),
    { source: store.source, job },
    'publishing',
    (message, outcome) =>
      message.type === 'outcome'
        ? outcome.resolve(message.outcome)
        : outcome.reject(new Error(`publishing failed: ${message.message}`)),
  );
}
