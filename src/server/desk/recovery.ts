import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { DeskDb } from './db';

// What keeps a staging or a publish from being left half done by a crash (kill -9, power loss).
//
// Leases: the desk engine that stages or publishes a change holds it, writing its own id (lease_owner) and a
// time (lease_until) on the change, renewed every third of the lease (DESK_LEASE_SECONDS) while it works. A
// change still `validating` or `approved` whose lease has run out belongs to an engine that stopped: any
// instance may take it over, by one UPDATE that only succeeds while the lease is still out, so only one does
// and a live instance's work is never taken. A clock-based lease rather than PostgreSQL advisory locks: the
// same rule holds on SQLite (whichever process on the file holds the change) and costs no held connection.
//
// A publish is one fact: its data swap commits only while its engine still holds the change, and records the
// change in desk_swaps in the same transaction (ReplaceOptions.publishing). Its version, the change's
// `published` state and its approve and publish events are then written in one transaction of their own. An
// interrupted publish whose swap committed is completed from the data served (version, snapshot, events marked
// `recovered`); one whose swap did not is released to `staged`, diffed again against what is served, with a
// `publish-interrupted` event. An interrupted staging becomes `failed` (`stage-interrupted`) and its upload is
// removed, as is any upload in DATA_DIR/uploads no staging reads.
//
// One holder per process: the serving threads of a process (serving-threads.ts) each run a desk engine, all with
// the process's owner id (processLeaseOwner), and a recovery never takes over a change its own process holds. A
// thread busy on SQLite's write lock may miss a renewal under load; no other thread of its process takes its work
// for that. A change held by a process that stopped has another owner than any live one.

export const INTERRUPTED_STAGING =
  'staging was interrupted (the server stopped before it finished); discard this change and upload the file again';

/** A new holder id: the host and process, for an operator reading desk_changes, and a random part. */
export const newLeaseOwner = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export class Leases {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: DeskDb,
    readonly ms: number,
    /** This engine's holder id: its process's, shared by the process's serving threads. */
    readonly owner: string = newLeaseOwner(),
    private readonly log?: (message: string) => void,
  ) {}

  /** The lease's end, taken or renewed now. */
  until(): string {
    return new Date(Date.now() + this.ms).toISOString();
  }

  /** The columns that make this engine a change's holder. */
  columns(): { lease_owner: string; lease_until: string } {
    return { lease_owner: this.owner, lease_until: this.until() };
  }

  /** Renews the change's lease while this engine works on it (until letGo). */
  hold(id: string): void {
    this.held.add(id);
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), this.ms / 3);
    this.timer.unref();
  }

  letGo(id: string): void {
    this.held.delete(id);
    if (this.held.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async renew(): Promise<void> {
    const ids = [...this.held];
    if (ids.length === 0) return;
    try {
      // Skipped when another connection writes to SQLite (a publish's swap): the next beat renews it.
      await this.db.runNoWait(
        `UPDATE desk_changes SET lease_until = ? WHERE lease_owner = ? AND id IN (${ids.map(() => '?').join(', ')})`,
        [this.until(), this.owner, ...ids],
      );
    } catch (error) {
      this.log?.(`renewing the desk's leases failed: ${(error as Error).message}`);
    }
  }
}

/** Snapshots a change's publish kept that no version points at (kept by a publish interrupted before its version). */
export const ORPHAN_SNAPSHOTS_SQL = `DELETE FROM desk_snapshots WHERE change_id = ?
  AND id NOT IN (SELECT snapshot_id FROM desk_versions WHERE snapshot_id IS NOT NULL)`;

/** Where uploads wait to be staged, and how long one there must be untouched before it counts as left over. */
export interface UploadsFolder {
  dir: string;
  /** At least the longest an upload may take to arrive (REQUEST_TIMEOUT_MS): one still arriving is kept. */
  quietMs: number;
}

const isIn = (folder: UploadsFolder, path: string) => dirname(resolve(path)) === resolve(folder.dir);

/** Removes an interrupted staging's upload, when it is one (a file in the uploads folder). */
export async function removeUpload(folder: UploadsFolder | undefined, path: unknown): Promise<void> {
  if (folder && typeof path === 'string' && isIn(folder, path)) await rm(path, { force: true });
}

/** Removes the uploads no staging reads (left by a crash while receiving or staging); returns how many. */
export async function sweepUploads(db: DeskDb, folder: UploadsFolder): Promise<number> {
  const names = await readdir(folder.dir).catch(() => [] as string[]);
  if (names.length === 0) return 0;
  const read = await db.all(`SELECT upload_path FROM desk_changes WHERE status = 'validating'`);
  const inUse = new Set(read.map((r) => (typeof r.upload_path === 'string' ? basename(r.upload_path) : '')));
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.upload') || inUse.has(name)) continue;
    const path = join(folder.dir, name);
    const touched = await stat(path).then(
      (s) => s.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - touched < folder.quietMs) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

/** Named steps of a staging and a publish where a test may crash the process. */
export type CrashPoint =
  | 'staging-started'
  | 'staging-saving'
  | 'publish-claimed'
  | 'publish-before-swap'
  | 'publish-swapped'
  | 'publish-recording';

/**
 * Tests only: with DESK_CRASH_FILE=<file> in its environment, the process kills itself with SIGKILL when the
 * desk reaches the step the file names, removing the file first (desk/__tests__/crash.process.test.ts arms one step at
 * a time, and the restarted server goes on): a real crash, at a known moment.
 */
export function crashPoint(point: CrashPoint): void {
  const file = process.env.DESK_CRASH_FILE;
  if (!file) return;
  let armed: string;
  try {
    armed = readFileSync(file, 'utf8').trim();
  } catch {
    return; // not armed
  }
  if (armed !== point) return;
  rmSync(file, { force: true });
  process.kill(process.pid, 'SIGKILL');
}
