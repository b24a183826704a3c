import type { DiffSummary } from '../../contract/ops-changes';
import { KIND_SCOPE, type RemovalHistory } from './diff';

// The removal guard across changes. Each version of a kind carries a ledger (desk_versions.removal_ledger): per
// scope (a country, or KIND_SCOPE for the kind) the publishes that touched it since the last one whose removals a
// checker confirmed there, within the window. A staged change's removals are added to what the ledger counts, so
// a country cannot lose more than the guard's share in small steps: the count starts again only at a confirmed
// version, or at the version in force REMOVAL_WINDOW_MS back, whichever is more recent. The latest version holds
// the whole ledger, so versions dropped by the retention take nothing the guard needs.

/** How far back removals are counted when no checker confirmed removals more recently. */
export const REMOVAL_WINDOW_MS = 7 * 24 * 3_600_000;

/** A publish that touched a scope: its rows before and after, and the rows it removed. */
export interface LedgerEntry {
  at: string;
  before: number;
  after: number;
  removed: number;
  /** A checker confirmed this publish's removals in this scope (it was over the guard there). */
  confirmed: boolean;
}

export type RemovalLedger = Record<string, LedgerEntry[]>;

const inWindow = (entry: LedgerEntry, at: Date) => Date.parse(entry.at) > at.getTime() - REMOVAL_WINDOW_MS;

/**
 * What the ledger counts against each scope at `at`: the rows served by the reference (the confirmed publish,
 * else the state before the window's first publish, i.e. the version in force then) and the rows removed since.
 */
export function removalHistory(ledger: RemovalLedger, at: Date = new Date()): RemovalHistory {
  const history: RemovalHistory = {};
  for (const [scope, all] of Object.entries(ledger)) {
    const entries = all.filter((entry) => inWindow(entry, at));
    if (entries.length === 0) continue;
    const [first, ...rest] = entries;
    history[scope] = first.confirmed
      ? { base: first.after, removed: rest.reduce((sum, e) => sum + e.removed, 0) }
      : { base: first.before, removed: entries.reduce((sum, e) => sum + e.removed, 0) };
  }
  return history;
}

/**
 * The ledger after a publish at `at`: an entry for each country the change touched and for the kind, its rows
 * before (`served`) and after (from its counts). Rows added after a reference are thus never part of its base.
 * A scope flagged by the guard and confirmed (`confirmed`) starts again from this entry. Entries older than the
 * window are dropped: no later staging counts them.
 */
export function nextLedger(
  previous: RemovalLedger,
  change: { summary: Pick<DiffSummary, 'counts' | 'byCountry' | 'guard'>; served: Record<string, number> },
  confirmed: boolean,
  at: string,
): RemovalLedger {
  const when = new Date(at);
  const ledger: RemovalLedger = {};
  for (const [scope, entries] of Object.entries(previous)) {
    const kept = entries.filter((entry) => inWindow(entry, when));
    if (kept.length > 0) ledger[scope] = kept;
  }
  const confirmedScopes = new Set(
    // A bank's flag (one bank's change) is measured against that bank's rows: no ledger of its own.
    confirmed ? change.summary.guard.flags.filter((f) => f.scope !== 'bank').map((f) => f.country ?? KIND_SCOPE) : [],
  );
  const record = (scope: string, counts: { added: number; removed: number }) => {
    const before = change.served[scope] ?? 0;
    const entry = {
      at,
      before,
      after: before - counts.removed + counts.added,
      removed: counts.removed,
      confirmed: confirmedScopes.has(scope),
    };
    ledger[scope] = entry.confirmed ? [entry] : [...(ledger[scope] ?? []), entry];
  };
  // Every country whose rows the change adds, removes or changes (one it leaves alone keeps its rows).
  for (const c of change.summary.byCountry) record(c.country, c);
  record(KIND_SCOPE, change.summary.counts);
  return ledger;
}
