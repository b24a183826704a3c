import type { FileReading } from '../../contract/ops-files';
import type * as Ops from '../../contract/ops-changes';
import { personOf } from '../../contract/ops-auth';
import type { StoredScope } from './scope';

// The operations desk's engine: what the /v1/ops routes, the import command and the benchmark call. It owns
// the change's life (stage → staged → approved → published, or rejected / discarded / expired), the
// difference against the published data, the versions kept for rollback and the ops audit trail; every piece
// of it lives in the database (SQLite or PostgreSQL), so several instances on one PostgreSQL share it.
// Errors carry the HTTP status the routes answer with (DeskError.status).

/** Who acts. The engine checks roles itself too: the routes are not the only caller. */
export interface OpsActor {
  name: string;
  roles: Ops.OpsRole[];
  via: Ops.OpsVia;
  /** Who stands behind this account or key (four eyes); absent for the command line and the engine's own callers. */
  provenance?: OpsProvenance;
}

/**
 * Who made an account or key what it is: an ops account's name or the shell user of `npm run ops-user`
 * (`scripts/api-key.ts` for a key); null where it was not recorded.
 */
export interface OpsProvenance {
  /** Who created the account (a key: who issued it). */
  createdBy: string | null;
  /** Who last set the account's password (someone who could sign in as it). */
  passwordSetBy: string | null;
  /** Who granted each of its roles. */
  grantedBy: Partial<Record<Ops.OpsRole, string | null>>;
}

export interface StageInput {
  kind: Ops.ChangeKind;
  /** The file on disk (the upload route wrote it; the desk keeps its own compressed copy in the database). */
  path: string;
  /** The file's name as the maker gave it (shown in the inbox, recorded in the version). */
  fileName: string;
  /** SHA-256 (hex) of the file, when the caller computed it while receiving; the desk computes it otherwise. */
  sha256?: string;
  /** How to read it (the public IFSC layout, a maker's column mapping); absent: as its header says. */
  reading?: FileReading;
  /** What the change may add, change or remove (desk/scope.ts); absent: what its file replaces. */
  scope?: StoredScope | null;
}

export interface StageOptions {
  /** Progress of reading, validation and diff (also kept on the change: `progress(id)`, for polling). */
  onProgress?: (progress: Ops.StagingProgress) => void;
  /** How to read the file (StageInput.reading). */
  reading?: FileReading;
  /** An XLSX file is refused once it inflates past this many bytes (OPS_XLSX_MAX_UNPACKED_BYTES). */
  maxUnpackedBytes?: number;
  /** The change's scope (StageInput.scope). */
  scope?: StoredScope | null;
  /** The import command's --skip-invalid: the difference of the good rows, which its publish applies. */
  skipInvalid?: boolean;
  /** The import command's: a file identical to what is served is staged (its publish names the file as the source). */
  keepIdentical?: boolean;
}

export interface StartedStaging {
  /** The change's id, known at once (poll `progress(id)` / `get(id)` while it validates). */
  id: string;
  /** Settles when the change is staged (or failed: the summary says so). */
  done: Promise<Ops.ChangeSummary>;
}

export interface ChangeDesk {
  /** Validates the file and diffs it against the published data; resolves with the staged change. Maker role. */
  stage(actor: OpsActor, input: StageInput, options?: StageOptions): Promise<Ops.ChangeSummary>;
  /** The same, returning the id at once (for a 202 + polling). */
  startStaging(actor: OpsActor, input: StageInput, options?: StageOptions): Promise<StartedStaging>;
  progress(id: string): Promise<Ops.StagingProgress | null>;
  list(query: Ops.ChangesQuery): Promise<Ops.OpsPage<Ops.ChangeSummary>>;
  get(id: string): Promise<Ops.ChangeDetail>;
  problems(id: string, query: Ops.ProblemsQuery): Promise<Ops.OpsPage<Ops.ValidationProblem>>;
  /** Every problem, file order (the CSV download). */
  allProblems(id: string): AsyncIterable<Ops.ValidationProblem>;
  diff(id: string, query: Ops.DiffQuery): Promise<Ops.OpsPage<Ops.DiffEntry>>;
  /**
   * Checker role, not the change's maker (OwnChangeError, whatever the roles or identity) nor an identity the
   * maker stands behind (MakerVouchedError; checkFourEyes). Publishes atomically against
   * the data version the change was diffed from; when that is no longer served the change is re-diffed
   * (status staged again) and StaleChangeError thrown. Over the removal guard without confirmRemovals:
   * RemovalsNotConfirmedError.
   */
  approve(actor: OpsActor, id: string, body: Ops.ApproveBody): Promise<Ops.ChangeSummary>;
  /** A maker or checker: a stale change diffed again against what is served now (202 + polling, as staging). */
  startRecheck(actor: OpsActor, id: string): Promise<StartedStaging>;
  /** Checker role. */
  reject(actor: OpsActor, id: string, body: Ops.RejectBody): Promise<Ops.ChangeSummary>;
  /** The change's maker (or an admin) closes their staged change. */
  discard(actor: OpsActor, id: string): Promise<Ops.ChangeSummary>;
  /** Expires staged changes untouched for DESK_CHANGE_TTL_HOURS; returns how many. Run periodically. */
  expire(now?: Date): Promise<number>;
  versions(query: Ops.VersionsQuery): Promise<Ops.OpsPage<Ops.VersionSummary>>;
  /** Checker role: stages a change restoring the version's snapshot (approved like any change, by another checker). */
  stageRollback(actor: OpsActor, versionId: number, options?: StageOptions): Promise<Ops.ChangeSummary>;
  /** The same, returning the id at once (for a 202 + polling). */
  startRollback(actor: OpsActor, versionId: number, options?: StageOptions): Promise<StartedStaging>;
  audit(query: Ops.AuditQuery): Promise<Ops.OpsPage<Ops.AuditEntry>>;
  /** Writes an audit row; resolves with its id. */
  recordOpsEvent(event: OpsEvent): Promise<number>;
  close(): Promise<void>;
}

export interface OpsEvent {
  actor: string;
  via: Ops.OpsVia | string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  at?: Date;
}

/** An error the ops routes answer with `status` in the problem+json shape. */
export class DeskError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 404: no such change or version. */
export class NotFoundError extends DeskError {
  constructor(what: string) {
    super(`${what} does not exist`, 404, 'not-found');
  }
}

/** 403: the actor lacks the role the action needs. */
export class RoleRequiredError extends DeskError {
  constructor(role: Ops.OpsRole, action: string) {
    super(`${action} needs the ${role} role`, 403, 'role-required');
  }
}

/** 403: the maker of a change approving it (four eyes: refused whatever their roles). */
export class OwnChangeError extends DeskError {
  constructor() {
    super('the maker of a change cannot approve it: another checker must', 403, 'own-change');
  }
}

/** 403: the approver's account or key, its password or its checker role came from the change's maker. */
export class MakerVouchedError extends DeskError {
  constructor(approver: string, reason: string) {
    super(`${approver} cannot approve this change: its maker ${reason}; another checker must`, 403, 'maker-vouched');
  }
}

/** 409: the change is not in a state that allows the action (already published, rejected, …; or has errors). */
export class WrongStateError extends DeskError {
  constructor(message: string) {
    super(message, 409, 'wrong-state');
  }
}

/**
 * 409: the data version the change was diffed from is no longer served. The change has been re-diffed
 * against the current data (status staged, fresh difference): the checker looks again and approves again.
 */
export class StaleChangeError extends DeskError {
  constructor(
    readonly change: Ops.ChangeSummary,
    readonly expectedVersion: string,
    readonly actualVersion: string,
  ) {
    super(
      `the published data changed since this change was diffed (data version ${expectedVersion} → ${actualVersion}); it has been diffed again against the current data: review the new difference and approve again`,
      409,
      'stale-change',
    );
  }
}

/** 422: the change removes more than the guard allows and the approval did not say confirmRemovals: true. */
export class RemovalsNotConfirmedError extends DeskError {
  constructor(summary: string) {
    super(
      `this change removes ${summary}; approve with confirmRemovals: true to publish it`,
      422,
      'removals-not-confirmed',
    );
  }
}

export const hasRole = (actor: OpsActor, role: Ops.OpsRole) => actor.roles.includes(role);

/** Whether the actor is the person named (an account and the keys issued to its holder are one person). */
export const isPerson = (actor: OpsActor, name: string) => personOf(actor.name) === personOf(name);

/**
 * Four eyes: the approver is another person than the change's maker (OwnChangeError), and not an identity the
 * maker stands behind (MakerVouchedError): an account the maker created or set the password of (so could sign
 * in as), a key the maker issued, a checker role the maker granted.
 */
export function checkFourEyes(approver: OpsActor, maker: string) {
  if (isPerson(approver, maker)) throw new OwnChangeError();
  const provenance = approver.provenance;
  if (!provenance) return;
  const key = approver.via === 'api-key';
  const reasons: [string | null | undefined, string][] = [
    [provenance.createdBy, key ? 'issued this key' : 'created this account'],
    [provenance.passwordSetBy, "set this account's password"],
    [provenance.grantedBy.checker, 'granted this checker role'],
  ];
  const found = reasons.find(([by]) => typeof by === 'string' && personOf(by) === personOf(maker));
  if (found) throw new MakerVouchedError(approver.name, found[1]);
}
