import type { LookupStore } from '../store/store';
import type { DeskDb } from './db';
import type { Leases, UploadsFolder } from './recovery';
import type { AuditRepository } from './repositories/audit';
import type { ChangesRepository } from './repositories/changes';
import type { FindingsRepository } from './repositories/findings';
import type { VersionsRepository } from './repositories/versions';

// What the desk engine (engine.ts) is made of, shared with the workflow parts it composes (staging.ts,
// record-publish.ts, take-over.ts, shell-import.ts): its options, the store, the repositories over the store's
// database and the leases of the changes it holds.

export interface DeskOptions {
  /** Hours a staged change may stay untouched before it expires (DESK_CHANGE_TTL_HOURS). */
  changeTtlHours?: number;
  /** Versions kept per kind, with their snapshots (DESK_VERSIONS_KEPT). */
  versionsKept?: number;
  /**
   * Called after a publish commits: the app brings this instance's search index to the new data version, so
   * that "published" means a teller's search here finds it. Waited for at most PUBLISH_CATCH_UP_MS; past it the
   * change is published all the same and the index swaps in when built (other instances: at their next check).
   */
  onPublished?: () => void | Promise<void>;
  /** Where to stage a file: a worker thread (true), this thread (false); absent: by its size (stage-in-worker.ts). */
  stageInWorker?: boolean;
  /** The staging worker's heap limit in MB (OPS_STAGE_HEAP_MB). */
  stageHeapMb?: number;
  /** How long a change this engine stages or publishes stays held without a renewal (DESK_LEASE_SECONDS). */
  leaseMs?: number;
  /** The holder id of this engine's process (recovery.ts): its serving threads' engines share it. */
  leaseOwner?: string;
  /**
   * Recover what a stopped instance left (recovery.ts) from startRecovery() on; removes the uploads left over in
   * this folder (DATA_DIR/uploads).
   */
  uploads?: UploadsFolder;
  log?: (message: string) => void;
}

export interface DeskContext {
  readonly store: LookupStore;
  readonly db: DeskDb;
  readonly options: DeskOptions;
  readonly leases: Leases;
  readonly changes: ChangesRepository;
  readonly findings: FindingsRepository;
  readonly versions: VersionsRepository;
  readonly audit: AuditRepository;
}
