import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type {
  ApproveBody,
  AuditEntry,
  AuditQuery,
  ChangeDetail,
  ChangeKind,
  ChangeSummary,
  ChangesQuery,
  DiffEntry,
  DiffQuery,
  DiffSummary,
  GroupCounts,
  OpsPage,
  ProblemsQuery,
  RejectBody,
  RuleCount,
  StagingProgress,
  ValidationProblem,
  VersionSummary,
  VersionsQuery,
} from '../../contract/ops-changes';
import type { LookupStore } from '../store/store';
import type { DeskContext, DeskOptions } from './context';
import { deskDbOf, type Row } from './db';
import { describeGuard, removalGuard } from './diff';
import type { StoredScope } from './scope';
import { untouchedCountries } from './kept-sources';
import { PUBLISH_IN_WORKER_FROM_GZ_BYTES, publishChange } from './publish';
import { Leases, crashPoint } from './recovery';
import { DEFAULTS } from '../config';
import { recordPublish } from './record-publish';
import { AuditRepository, SYSTEM } from './repositories/audit';
import { ChangesRepository } from './repositories/changes';
import { FindingsRepository } from './repositories/findings';
import { json, now, type Approval } from './repositories/rows';
import { VersionsRepository } from './repositories/versions';
import { prepareAndSave, stageAndSave } from './staging';
import { recoverStopped } from './take-over';
import {
  DeskError,
  RemovalsNotConfirmedError,
  RoleRequiredError,
  StaleChangeError,
  WrongStateError,
  NotFoundError,
  checkFourEyes,
  hasRole,
  isPerson,
  type ChangeDesk,
  type OpsActor,
  type OpsEvent,
  type StageInput,
  type StageOptions,
  type StartedStaging,
} from './desk';

// The desk's engine (desk.ts says what it promises). Everything it keeps is in the store's database: the change
// with a gzip copy of its file, its problems and difference entries, the versions with their snapshots, and the
// audit trail. Approval rebuilds the data set from the kept file against the data version it was diffed from
// and publishes it through the store's replaceDataSet with that version expected, so a change is published as
// the checker saw it or not at all.
//
// The engine is the workflow: it composes the repositories over the store's database (repositories/: the
// changes, their findings, the versions, the audit trail), the staging path (staging.ts), the recording of a
// publish (record-publish.ts), a recovery's take-over (take-over.ts) and the import command's path
// (shell-import.ts).

export type { DeskOptions } from './context';

const gunzip = promisify(gunzipCallback);

/** The longest an approval waits for this instance's search index to serve what it published. */
const PUBLISH_CATCH_UP_MS = 60_000;

export class DeskEngine implements ChangeDesk {
  private readonly ctx: DeskContext;
  private readonly changes: ChangesRepository;
  private readonly running = new Set<Promise<unknown>>();
  private readonly leases: Leases;
  private recovery: { timer: NodeJS.Timeout; pass: Promise<void> | undefined } | undefined;

  constructor(
    readonly store: LookupStore,
    private readonly options: DeskOptions = {},
  ) {
    const db = deskDbOf(store);
    const ttlMs = (options.changeTtlHours ?? DEFAULTS.DESK_CHANGE_TTL_HOURS) * 3_600_000;
    const leases = new Leases(
      db,
      options.leaseMs ?? DEFAULTS.DESK_LEASE_SECONDS * 1000,
      options.leaseOwner,
      options.log,
    );
    this.leases = leases;
    this.changes = new ChangesRepository(db, leases, ttlMs);
    this.ctx = {
      store,
      db,
      options,
      leases,
      changes: this.changes,
      findings: new FindingsRepository(db),
      versions: new VersionsRepository(db, options.versionsKept ?? DEFAULTS.DESK_VERSIONS_KEPT),
      audit: new AuditRepository(db),
    };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Staging

  async stage(actor: OpsActor, input: StageInput, options: StageOptions = {}): Promise<ChangeSummary> {
    return (await this.startStaging(actor, input, options)).done;
  }

  async startStaging(actor: OpsActor, input: StageInput, options: StageOptions = {}): Promise<StartedStaging> {
    if (!hasRole(actor, 'maker')) throw new RoleRequiredError('maker', 'staging a change');
    return this.begin(actor, input.kind, input.path, input.fileName, input.sha256, null, {
      ...options,
      reading: input.reading,
      scope: input.scope ?? options.scope,
    });
  }

  /** Records the change (status validating) and prepares it in the background (staging.ts). */
  private async begin(
    actor: OpsActor,
    kind: ChangeKind,
    source: string | Uint8Array,
    fileName: string,
    sha256: string | undefined,
    rollbackOf: number | null,
    options: StageOptions,
  ): Promise<StartedStaging> {
    const id = randomUUID();
    const uploadPath = typeof source === 'string' ? source : null;
    await this.changes.insertValidating({
      id,
      kind,
      fileName,
      sha256,
      rollbackOf,
      actor,
      uploadPath,
      scope: options.scope,
    });
    this.leases.hold(id);
    crashPoint('staging-started');
    const done = prepareAndSave(this.ctx, id, kind, source, fileName, options)
      .then(() => this.summaryOf(id))
      .then(
        async (summary) => {
          await this.recordOpsEvent({
            actor: actor.name,
            via: actor.via,
            action: rollbackOf === null ? 'stage' : 'rollback-staged',
            target: id,
            detail: {
              kind,
              fileName,
              rollbackOf,
              rows: summary.rows,
              problems: summary.problemCount,
              diff: summary.diff?.counts ?? null,
              guardFlagged: summary.diff?.guard.flagged ?? false,
            },
          });
          return summary;
        },
        async (error: Error) => {
          this.options.log?.(`staging ${id} failed: ${error.stack ?? error.message}`);
          await this.changes.failStaging(id, error.message);
          return this.summaryOf(id);
        },
      );
    return this.track(id, done);
  }

  /** A held change's work in the background: kept until it settles (close waits for it), then the change let go. */
  private track(id: string, done: Promise<ChangeSummary>): StartedStaging {
    this.running.add(done);
    void done.finally(() => {
      this.running.delete(done);
      this.leases.letGo(id);
    });
    return { id, done };
  }

  async progress(id: string): Promise<StagingProgress | null> {
    const row = await this.changes.row(id);
    return json<StagingProgress>(row.progress);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Reading changes

  private async summaryOf(id: string): Promise<ChangeSummary> {
    return this.changes.summary(await this.changes.row(id), await this.store.dataVersion());
  }

  async get(id: string): Promise<ChangeDetail> {
    await this.expire();
    const row = await this.changes.row(id);
    return {
      ...this.changes.summary(row, await this.store.dataVersion()),
      ruleCounts: json<RuleCount[]>(row.rule_counts) ?? [],
      byBank: json<GroupCounts[]>(row.by_bank) ?? [],
    };
  }

  async list(query: ChangesQuery): Promise<OpsPage<ChangeSummary>> {
    await this.expire();
    return this.changes.page(query, await this.store.dataVersion());
  }

  async problems(id: string, query: ProblemsQuery): Promise<OpsPage<ValidationProblem>> {
    await this.changes.row(id);
    return this.ctx.findings.problems(id, query);
  }

  async *allProblems(id: string): AsyncIterable<ValidationProblem> {
    await this.changes.row(id);
    yield* this.ctx.findings.allProblems(id);
  }

  async diff(id: string, query: DiffQuery): Promise<OpsPage<DiffEntry>> {
    const row = await this.changes.row(id);
    return this.ctx.findings.diff(id, json<GroupCounts[]>(row.by_bank) ?? [], query);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Decisions

  async approve(actor: OpsActor, id: string, body: ApproveBody): Promise<ChangeSummary> {
    if (!hasRole(actor, 'checker')) throw new RoleRequiredError('checker', 'approving a change');
    const row = await this.changes.row(id);
    // Four eyes: the maker never approves their own change, whatever roles they hold or identity they use, nor
    // does an identity the maker stands behind.
    checkFourEyes(actor, String(row.staged_by));
    return this.publish(actor, row, body, { comment: body.comment });
  }

  /**
   * Publishes a staged change (approve, and the import command). Claims it first (staged → approved), so two
   * checkers cannot both publish it; anything that stops the publish puts it back to staged.
   */
  private async publish(
    actor: OpsActor,
    row: Row,
    body: { confirmRemovals?: boolean },
    decision: { comment: string; skipInvalid?: boolean },
  ): Promise<ChangeSummary> {
    const id = String(row.id);
    if (row.status !== 'staged') throw new WrongStateError(`the change is ${String(row.status)}, not staged`);
    const summary = this.changes.summary(row, String(row.base_version));
    // The import command's --skip-invalid publishes the difference of the good rows, bad rows reported.
    if (decision.skipInvalid && summary.diff && summary.rows.valid > 0) summary.approvable = true;
    if (!summary.approvable)
      throw new WrongStateError('the change has validation problems (or no difference): it cannot be published');
    const served = json<Record<string, number>>(row.served_rows);
    if (served) summary.diff = await this.guardNow(id, summary.kind, summary.diff!, served);
    if (summary.diff!.guard.flagged && !body.confirmRemovals)
      throw new RemovalsNotConfirmedError(describeGuard(summary.diff!, summary.kind));
    const approval: Approval = {
      by: actor.name,
      via: actor.via,
      comment: decision.comment,
      confirmRemovals: body.confirmRemovals ?? false,
    };
    // Held by this engine while it publishes (recovery.ts): a crash leaves it to a recovery, never stuck.
    const claim = { ...this.leases.columns(), approval: JSON.stringify(approval) };
    if (!(await this.changes.transition(id, ['staged'], 'approved', claim)))
      throw new WrongStateError('the change was decided or changed meanwhile');
    this.leases.hold(id);
    crashPoint('publish-claimed');
    let swapped = false;
    try {
      const version = await this.store.dataVersion();
      if (version !== row.base_version) await this.restale(actor, id, summary.kind);
      const gz = await this.changes.keptGzip(id);
      const scope = json<StoredScope>(row.scope);
      const { kind, fileName, sha256, countries } = summary;
      const untouched = summary.rollbackOf === null ? [] : untouchedCountries(countries, summary.diff);
      const job = {
        kind,
        gz,
        fileName,
        sha256,
        untouched,
        expectedVersion: version,
        scope,
        skipInvalid: decision.skipInvalid,
      };
      const outcome = await publishChange(
        this.store,
        { ...job, changeId: id, owner: this.leases.owner, leaseMs: this.leases.ms },
        this.options.stageInWorker ?? gz.byteLength >= PUBLISH_IN_WORKER_FROM_GZ_BYTES,
      );
      if (outcome.type === 'invalid')
        throw new WrongStateError('the change no longer validates against the published data');
      if (outcome.type === 'changed') await this.restale(actor, id, summary.kind);
      if (outcome.type === 'not-held') throw new WrongStateError('the change was taken over by another instance');
      if (outcome.type !== 'published') throw new Error('unreachable');
      swapped = true;
      crashPoint('publish-recording');
      await recordPublish(this.ctx, id, outcome.next, false);
      await this.catchUp();
      return this.summaryOf(id);
    } finally {
      if (!swapped) await this.changes.release(id);
      this.leases.letGo(id);
    }
  }

  /**
   * The data changed under a change being approved: it is diffed again against what is served now (status
   * staged, a fresh difference and report) and the approval refused with StaleChangeError (409).
   */
  private async restale(actor: OpsActor, id: string, kind: ChangeKind): Promise<never> {
    const row = await this.changes.row(id);
    // Staged again against what is served now: stageAndSave marks it staged, from approved.
    const file = await this.changes.file(id);
    const staged = await stageAndSave(this.ctx, id, kind, file, String(row.file_name), this.store, false, {
      scope: json<StoredScope>(row.scope),
    });
    const version = staged.baseVersion;
    await this.recordOpsEvent({
      actor: actor.name,
      via: actor.via,
      action: 'restale',
      target: id,
      detail: { from: row.base_version, to: version, diff: staged.diff?.summary.counts ?? null },
    });
    throw new StaleChangeError(await this.summaryOf(id), String(row.base_version), version);
  }

  /**
   * Compare again (a maker or checker): a stale change is diffed against what is served now, in the background
   * (status validating meanwhile, as a staging), then staged with its new difference (or failed: identical).
   */
  async startRecheck(actor: OpsActor, id: string): Promise<StartedStaging> {
    if (!hasRole(actor, 'maker') && !hasRole(actor, 'checker'))
      throw new RoleRequiredError('checker', 'comparing a change again (or the maker role)');
    const row = await this.changes.row(id);
    const served = await this.store.dataVersion();
    if (row.status !== 'staged' || row.base_version === served)
      throw new WrongStateError(
        `the change is ${this.changes.summary(row, served).status}, not stale: nothing to compare again`,
      );
    const claim = { ...this.leases.columns(), progress: JSON.stringify({ phase: 'reading', done: 0, total: 0 }) };
    if (!(await this.changes.transition(id, ['staged'], 'validating', claim)))
      throw new WrongStateError('the change was decided or changed meanwhile');
    this.leases.hold(id);
    const kind = row.kind as ChangeKind;
    const done = (async () => {
      try {
        const file = await this.changes.file(id);
        const staged = await stageAndSave(this.ctx, id, kind, file, String(row.file_name), this.store, false);
        const detail = { from: row.base_version, to: staged.baseVersion, diff: staged.diff?.summary.counts ?? null };
        await this.recordOpsEvent({ actor: actor.name, via: actor.via, action: 'recheck', target: id, detail });
      } catch (error) {
        this.options.log?.(`comparing ${id} again failed: ${(error as Error).stack ?? String(error)}`);
        const failed = { failure: (error as Error).message, progress: null, lease_owner: null, lease_until: null };
        await this.changes.transition(id, ['validating'], 'failed', failed, { held: true });
      }
      return this.summaryOf(id);
    })();
    return this.track(id, done);
  }

  async reject(actor: OpsActor, id: string, body: RejectBody): Promise<ChangeSummary> {
    if (!hasRole(actor, 'checker')) throw new RoleRequiredError('checker', 'rejecting a change');
    const reason = body.reason?.trim();
    if (!reason) throw new DeskError('a rejection needs a reason', 400, 'reason-required');
    await this.changes.row(id);
    const decided = { decided_by: actor.name, decided_at: now(), comment: reason };
    if (!(await this.changes.transition(id, ['staged'], 'rejected', decided)))
      throw new WrongStateError(`the change is ${String((await this.changes.row(id)).status)}, not staged`);
    await this.recordOpsEvent({ actor: actor.name, via: actor.via, action: 'reject', target: id, detail: { reason } });
    return this.summaryOf(id);
  }

  async discard(actor: OpsActor, id: string): Promise<ChangeSummary> {
    const row = await this.changes.row(id);
    if (!isPerson(actor, String(row.staged_by)) && !hasRole(actor, 'admin'))
      throw new DeskError('only the maker of a change (or an admin) can discard it', 403, 'not-your-change');
    const decided = { decided_by: actor.name, decided_at: now() };
    if (!(await this.changes.transition(id, ['staged', 'failed'], 'discarded', decided)))
      throw new WrongStateError(`the change is ${String(row.status)}, not staged`);
    await this.recordOpsEvent({ actor: actor.name, via: actor.via, action: 'discard', target: id });
    return this.summaryOf(id);
  }

  async expire(at: Date = new Date()): Promise<number> {
    const cutoff = new Date(at.getTime() - this.changes.ttlMs).toISOString();
    let expired = 0;
    for (const id of await this.changes.untouchedSince(cutoff)) {
      if (!(await this.changes.transition(id, ['staged'], 'expired', { decided_at: at.toISOString() }))) continue;
      expired++;
      await this.recordOpsEvent({
        ...SYSTEM,
        actor: SYSTEM.name,
        action: 'expire',
        target: id,
        detail: { untouchedSince: cutoff },
      });
    }
    return expired;
  }

  /**
   * The guard of a change being approved, from its counts and the removals counted now (a version published or
   * the window moved since it was staged); kept on the change when it differs, so its report shows it.
   */
  private async guardNow(
    id: string,
    kind: ChangeKind,
    diff: DiffSummary,
    served: Record<string, number>,
  ): Promise<DiffSummary> {
    const guard = removalGuard(diff, served, await this.ctx.versions.countedRemovals(kind));
    if (JSON.stringify(guard) === JSON.stringify(diff.guard)) return diff;
    const updated = { ...diff, guard };
    await this.changes.saveSummary(id, updated);
    return updated;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Versions

  async versions(query: VersionsQuery): Promise<OpsPage<VersionSummary>> {
    return this.ctx.versions.page(query);
  }

  /** onPublished, waited for at most PUBLISH_CATCH_UP_MS (a failure or a slow build never fails the publish). */
  private async catchUp(): Promise<void> {
    const onPublished = this.options.onPublished;
    if (!onPublished) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), PUBLISH_CATCH_UP_MS);
    });
    try {
      const outcome = await Promise.race([Promise.resolve(onPublished()).then(() => 'done' as const), timeout]);
      if (outcome === 'timeout') this.options.log?.('published; the search index is still being rebuilt');
    } catch (error) {
      this.options.log?.(`published; refreshing the search index failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async stageRollback(actor: OpsActor, versionId: number, options: StageOptions = {}): Promise<ChangeSummary> {
    return (await this.startRollback(actor, versionId, options)).done;
  }

  async startRollback(actor: OpsActor, versionId: number, options: StageOptions = {}): Promise<StartedStaging> {
    if (!hasRole(actor, 'checker')) throw new RoleRequiredError('checker', 'rolling back');
    const version = await this.ctx.versions.withSnapshot(versionId);
    if (!version) throw new NotFoundError(`version ${versionId}`);
    if (!version.snapshot_gz) throw new WrongStateError(`version ${versionId} has no snapshot kept`);
    const bytes = await gunzip(version.snapshot_gz as Buffer);
    const started = await this.begin(
      actor,
      version.kind as ChangeKind,
      bytes,
      `rollback-to-version-${versionId}.csv`,
      undefined,
      versionId,
      options,
    );
    return started;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Recovery (recovery.ts says what it promises)

  /** Recovers now, then every half lease until close(), in the background; a failed pass is logged and retried. */
  startRecovery(): void {
    if (this.recovery) return;
    const pass = () => {
      if (!this.recovery || this.recovery.pass) return;
      this.recovery.pass = this.recover()
        .catch((error: Error) => this.options.log?.(`desk recovery failed: ${error.stack ?? error.message}`))
        .finally(() => {
          if (this.recovery) this.recovery.pass = undefined;
        });
    };
    this.recovery = { timer: setInterval(pass, this.leases.ms / 2), pass: undefined };
    this.recovery.timer.unref();
    pass();
  }

  /**
   * Takes over each change left validating or approved by an engine whose lease ran out: a staging becomes
   * failed (its upload removed); a publish is completed if its data swap committed, else released to staged.
   * Then removes the uploads no staging reads (take-over.ts).
   */
  recover(): Promise<void> {
    return recoverStopped(this.ctx);
  }

  // ---------------------------------------------------------------------------------------------------------
  // The import command (shell-import.ts)

  /**
   * The import command's publish of a change it staged: the operator with shell access is its maker and its
   * checker, audited as such (no four eyes); with `skipInvalid` the good rows are published, the bad left out.
   */
  async publishFromShell(actor: OpsActor, id: string, options: { confirmRemovals: boolean; skipInvalid?: boolean }) {
    const row = await this.changes.row(id);
    return this.publish(actor, row, options, { comment: '', skipInvalid: options.skipInvalid });
  }

  /** A change the import command staged and does not publish (a dry run, refused): it leaves nothing behind. */
  async forget(id: string): Promise<void> {
    await this.changes.forget(id);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Audit

  async recordOpsEvent(event: OpsEvent): Promise<number> {
    return this.ctx.audit.record(event);
  }

  /** Updates an aggregate row's running count (refused sign-ins: plugins/app/refused-sign-ins.ts). */
  async reviseOpsEvent(id: number, detail: Record<string, unknown>): Promise<void> {
    await this.ctx.audit.revise(id, detail);
  }

  async audit(query: AuditQuery): Promise<OpsPage<AuditEntry>> {
    return this.ctx.audit.page(query);
  }

  /** Waits for stagings and a recovery still running (they write to the store); the store is the caller's. */
  async close(): Promise<void> {
    const recovery = this.recovery;
    this.recovery = undefined;
    if (recovery) clearInterval(recovery.timer);
    await Promise.allSettled([...this.running, recovery?.pass]);
  }
}

/** The desk's events for a caller that has only the store (desk-auth's sign-in events). */
export const recordOpsEvent = (store: LookupStore, event: OpsEvent) => new DeskEngine(store).recordOpsEvent(event);
