import type { FastifyBaseLogger } from 'fastify';
import type { OpsAuthEvent } from '../../auth/credentials';

// Sign-ins refused by the sign-in limit (429) are audited in aggregate: one audit row per limited account or
// address per window, written at the window's first refusal and then revised in place with the running count
// (at most every `reviseEveryMs`, at the window's end and when the server stops). A refused attempt never
// reaches the password check, so it is not an authentication attempt of its own: what the trail must show is
// that someone kept trying, from where, against which names, how often and until when, and one row says that.
// A row per refusal would let anyone on the network write to the audit trail as fast as they can send.
// Failed sign-ins below the limit keep their row each (a wrong password is an authentication attempt: it is
// audited one by one); the limit bounds how many of those one address or one name can cause per window.
// Counts are per instance: with several instances each writes its own row for a window it refused in.

export interface RefusalTrail {
  /** Writes a new audit row; resolves with its id. */
  record(event: OpsAuthEvent): Promise<number | void>;
  /** Replaces the detail of a row `record` wrote. */
  revise(id: number, detail: Record<string, unknown>): Promise<void>;
}

export interface RefusedSignIn {
  /** Which limit refused it: the account name's budget or the client address's. */
  limit: 'account' | 'address';
  /** The (canonical) name the attempt gave. */
  name: string;
  address: string;
  /** When the limit lets this account or address try again (epoch ms): the window ends then. */
  windowEndsAt: number;
}

interface Tally {
  limit: RefusedSignIn['limit'];
  actor: string;
  target: string;
  count: number;
  written: number;
  firstAt: number;
  lastAt: number;
  endsAt: number;
  lastWriteAt: number;
  names: Set<string>;
  addresses: Set<string>;
  /** The row's id, once inserted. */
  row: Promise<number | void>;
  /** Revisions of the row, one after another (a later count is never overwritten by an earlier one). */
  writing: Promise<void>;
}

/** Names and addresses listed in a row (the first ones of the window; the count covers all). */
const LISTED = 10;

const iso = (ms: number) => new Date(ms).toISOString();

export class RefusedSignIns {
  private readonly tallies = new Map<string, Tally>();
  /** Revisions under way, of open and of closed windows (flush waits for all). */
  private readonly writes = new Set<Promise<void>>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly trail: RefusalTrail,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number,
    private readonly options: { reviseEveryMs: number; maxTallies: number } = {
      reviseEveryMs: 5000,
      maxTallies: 10_000,
    },
  ) {}

  /**
   * Counts a refused sign-in. The first refusal of a window writes the row (and fails like any audit write
   * when it cannot); the others only count, so a flood costs no write per request.
   */
  async refuse(refused: RefusedSignIn): Promise<void> {
    const at = this.now();
    const key = `${refused.limit}:${refused.limit === 'account' ? refused.name : refused.address}`;
    let tally = this.tallies.get(key);
    if (tally && at >= tally.endsAt) {
      this.close(key, tally);
      tally = undefined;
    }
    if (tally) {
      tally.count += 1;
      tally.lastAt = at;
      if (tally.names.size < LISTED) tally.names.add(refused.name);
      if (tally.addresses.size < LISTED) tally.addresses.add(refused.address);
      if (at - tally.lastWriteAt >= this.options.reviseEveryMs) this.revise(tally);
      return;
    }
    if (this.tallies.size >= this.options.maxTallies) {
      const [oldestKey, oldest] = this.tallies.entries().next().value!;
      this.close(oldestKey, oldest);
    }
    const created: Tally = {
      limit: refused.limit,
      actor: refused.name,
      target: key,
      count: 1,
      written: 1,
      firstAt: at,
      lastAt: at,
      endsAt: Math.max(refused.windowEndsAt, at + 1),
      lastWriteAt: at,
      names: new Set([refused.name]),
      addresses: new Set([refused.address]),
      row: Promise.resolve(),
      writing: Promise.resolve(),
    };
    const event: OpsAuthEvent = {
      actor: created.actor,
      via: 'session',
      action: 'sign-in-failed',
      target: created.target,
      detail: this.detailOf(created),
    };
    this.log.info({ opsAudit: event }, 'ops event');
    created.row = this.trail.record(event);
    this.tallies.set(key, created);
    this.sweep();
    try {
      await created.row;
    } catch (error) {
      // Not written: the next refusal tries again with a row of its own.
      if (this.tallies.get(key) === created) this.tallies.delete(key);
      throw error;
    }
  }

  /** Writes every count not yet written and forgets every window (the server stops). */
  async flush(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    const open = [...this.tallies.values()];
    this.tallies.clear();
    for (const tally of open) this.revise(tally);
    await Promise.all(this.writes);
  }

  private detailOf(tally: Tally): Record<string, unknown> {
    return {
      reason: 'rate-limited',
      limit: tally.limit,
      count: tally.count,
      firstAt: iso(tally.firstAt),
      lastAt: iso(tally.lastAt),
      windowEndsAt: iso(tally.endsAt),
      names: [...tally.names],
      addresses: [...tally.addresses],
    };
  }

  private close(key: string, tally: Tally) {
    this.tallies.delete(key);
    this.revise(tally);
  }

  /** Writes the tally's count when it changed since the last write; errors are logged (nobody waits). */
  private revise(tally: Tally) {
    if (tally.count === tally.written) return;
    tally.written = tally.count;
    tally.lastWriteAt = this.now();
    const detail = this.detailOf(tally);
    tally.writing = tally.writing
      .then(async () => {
        const id = await tally.row;
        if (typeof id === 'number') await this.trail.revise(id, detail);
      })
      .catch((error: unknown) => {
        this.log.error(
          { err: error, opsAudit: { target: tally.target, detail } },
          'refused sign-ins not counted in the audit trail',
        );
      });
    const written = tally.writing;
    this.writes.add(written);
    void written.finally(() => this.writes.delete(written));
  }

  /** While windows are open, their counts are written every reviseEveryMs and ended windows closed. */
  private sweep() {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const at = this.now();
      for (const [key, tally] of this.tallies) {
        if (at >= tally.endsAt) this.close(key, tally);
        else this.revise(tally);
      }
      if (this.tallies.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, this.options.reviseEveryMs);
    this.sweeper.unref();
  }
}
