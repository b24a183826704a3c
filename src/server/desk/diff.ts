import type { ChangeKind, DiffEntry, DiffSummary, GroupCounts, GuardFlag } from '../../contract/ops-changes';
import type { AgentRow, BranchRow, DataSet, HeadOfficeRow } from '../domain/data-set';
import type { KindRow } from '../importer/kinds';
import { AGENT_TABLE, BRANCH_TABLE, fieldsOf, headOfficeFields } from '../domain/kind-columns';
import { agentKey, branchKey, headOfficeKey, keyParts } from '../domain/natural-keys';
import {
  CodeChanges,
  agentIdentity,
  branchIdentity,
  searchTextOf,
  type Compared,
  type Identified,
  type Served,
  type ServedSource,
} from './code-changes';

// The difference a change makes to the published data: records of its kind matched by their natural key
// (domain/natural-keys.ts), each added, removed or changed (field by field), with counts per country and bank
// and the removal guard. Only the records the change replaces are compared: a branch file replaces the branches
// of the countries it holds, a partners or agents file the whole kind.

/** A record's key, country and bank. */
export interface Identity {
  key: string;
  country: string;
  bankCode: string | null;
}

interface KindView {
  /** The served rows of the kind. */
  rows(dataSet: DataSet): KindRow[];
  /** A row's key, country and bank (a branch's bank, an agent's head office), without its fields. */
  whoIs(row: KindRow): Identity;
  /** A row's fields, as the difference compares them. */
  fields(row: KindRow): Compared['fields'];
  /** Whether a served row is replaced by a file of these countries (a branch file replaces its countries). */
  replaces(record: Pick<Identity, 'country'>, countries: ReadonlySet<string>): boolean;
  /**
   * What stays when only the code changes (code-changes.ts): a record whose code is new, but whose identity a
   * removed record had, is that record with its code changed. Absent: the kind's code is all it is.
   */
  identity?: (record: Identified) => string | null;
}

const VIEWS: Record<ChangeKind, KindView> = {
  branches: {
    rows: (dataSet) => dataSet.branches,
    whoIs: (b: BranchRow) => ({ key: branchKey(b), country: b.country, bankCode: b.bankCode }),
    fields: (b: BranchRow) => fieldsOf(BRANCH_TABLE, b),
    replaces: (record, countries) => countries.has(record.country),
    identity: branchIdentity,
  },
  agents: {
    rows: (dataSet) => dataSet.agents,
    whoIs: (a: AgentRow) => ({ key: agentKey(a), country: a.country, bankCode: a.headOfficeCode }),
    fields: (a: AgentRow) => fieldsOf(AGENT_TABLE, a),
    replaces: () => true,
    identity: agentIdentity,
  },
  partners: {
    rows: (dataSet) => dataSet.headOffices,
    whoIs: (h: HeadOfficeRow) => ({ key: headOfficeKey(h), country: h.country, bankCode: null }),
    fields: headOfficeFields,
    replaces: () => true,
  },
};

/** A row's key, country, bank and fields: what the difference compares. */
function compared(view: KindView, row: KindRow): Compared {
  const { key, country, bankCode } = view.whoIs(row);
  return { key, country, bankCode, fields: view.fields(row) };
}

/** Rows of the kind in a data set (a version's row count). */
export const rowsOfKind = (kind: ChangeKind, dataSet: DataSet) => VIEWS[kind].rows(dataSet).length;

/** The served rows of a kind and how to tell who each is (scope.ts). */
export const kindRows = (kind: ChangeKind, dataSet: DataSet) => ({
  rows: VIEWS[kind].rows(dataSet),
  identity: VIEWS[kind].whoIs,
});

/**
 * What a scoped change (scope.ts) tells the difference: which served records it removes when the file does not
 * give them, and the guard's extra scope (one bank of one country: `country/bank`, its rows served).
 */
export interface DiffArea {
  removes(record: Identity): boolean;
  /** The served records counted for the guard's bank scope, when the change is one bank's. */
  bank?: { country: string; bankCode: string };
}

/** The guard's key of one bank of one country. */
export const bankScopeKey = (country: string, bankCode: string) => `${country}/${bankCode}`;

export interface Difference {
  summary: DiffSummary;
  byBank: GroupCounts[];
  /**
   * Rows served before the change in what it replaces: each country's, and the kind's under KIND_SCOPE (the guard
   * is recomputed from these at approval, with the removals counted since then).
   */
  served: Record<string, number>;
}

/** A difference entry as the desk keeps it (desk_diff's columns after the change id and position). */
export type DiffRow = [
  op: DiffEntry['op'],
  country: string,
  bankCode: string | null,
  keyParts: string,
  before: string | null,
  after: string | null,
  changedFields: string,
  previousKey: string | null,
  searchText: string,
];

export const diffRowOf = (e: DiffEntry): DiffRow => [
  e.op,
  e.country,
  e.bankCode,
  JSON.stringify(e.key),
  e.before && JSON.stringify(e.before),
  e.after && JSON.stringify(e.after),
  e.changedFields.join(' '),
  e.previousKey ? JSON.stringify(e.previousKey) : null,
  searchTextOf(e),
];

/** desk_diff's columns: the change, the entry's position, then a DiffRow. */
export const DIFF_COLUMNS = [
  'change_id',
  'seq:int',
  'op',
  'country',
  'bank_code',
  'key_parts',
  'before_fields',
  'after_fields',
  'changed_fields',
  'previous_key',
  'search_text',
];

/** A removal share above this flags the change (more than 20 %). */
export const REMOVAL_GUARD = 0.2;

/** The guard's scope for the whole kind (beside each country's code). */
export const KIND_SCOPE = '*';

/**
 * Removals already counted against a scope (a country, or KIND_SCOPE) by earlier versions: `removed` rows since
 * its reference version, which served `base` rows (removal-ledger.ts).
 */
export type RemovalHistory = Record<string, { base: number; removed: number }>;

/**
 * The removal guard: a scope is flagged when this change removes some of its rows and, with the removals counted
 * before it (`history`), more than REMOVAL_GUARD of the rows its reference served are gone; a scope without
 * history is measured against what is served now (`served`). Small steps thus add up until a checker confirms.
 */
export function removalGuard(
  summary: Pick<DiffSummary, 'counts' | 'byCountry'>,
  served: Record<string, number>,
  history: RemovalHistory = {},
): DiffSummary['guard'] {
  const flags: GuardFlag[] = [];
  const check = (scope: string, removedNow: number) => {
    if (removedNow === 0) return;
    const counted = history[scope];
    const base = counted ? counted.base : (served[scope] ?? 0);
    const removed = removedNow + (counted?.removed ?? 0);
    if (!(base > 0 && removed / base > REMOVAL_GUARD)) return;
    const [country, bankCode] = scope.split('/');
    const flag = { removed, served: base, share: removed / base };
    if (bankCode) flags.push({ scope: 'bank', country, bankCode, ...flag });
    else
      flags.push({
        scope: scope === KIND_SCOPE ? 'kind' : 'country',
        country: scope === KIND_SCOPE ? null : scope,
        ...flag,
      });
  };
  for (const c of summary.byCountry) check(c.country, c.removed);
  // A change of one bank removes that bank's rows only: measured against them too.
  for (const scope of Object.keys(served).filter((s) => s.includes('/')))
    check(scope, summary.byCountry.find((c) => c.country === scope.split('/')[0])?.removed ?? 0);
  check(KIND_SCOPE, summary.counts.removed);
  return { threshold: REMOVAL_GUARD, flagged: flags.length > 0, flags };
}

/** The n-th record with one key (from 1): two records with one key are told apart by their order. */
const keyOf = (key: string, n: number) => (n === 1 ? key : `${key}\u001f#${n}`);

/**
 * The served records of the kind, keyed: each one's key and order among its key's records, its fields compared
 * only when asked (a file of one bank reads a few of a million served records; comparing them all up front held
 * a fields object per served record).
 */
class ServedRecords implements ServedSource {
  readonly rows: KindRow[];
  /** Each served row's key, and which record of that key it is (from 1), by the row's position. */
  private readonly keys: string[];
  private readonly order: Uint32Array;
  private readonly at = new Map<string, number>();

  constructor(
    private readonly view: KindView,
    dataSet: DataSet,
    country?: string,
  ) {
    const rows = view.rows(dataSet);
    this.rows = country === undefined ? rows : rows.filter((row) => row.country === country);
    this.keys = new Array<string>(this.rows.length);
    this.order = new Uint32Array(this.rows.length);
    const count = new Map<string, number>();
    for (let i = 0; i < this.rows.length; i++) {
      const key = view.whoIs(this.rows[i]).key;
      const n = (count.get(key) ?? 0) + 1;
      count.set(key, n);
      this.keys[i] = key;
      this.order[i] = n;
      this.at.set(keyOf(key, n), i);
    }
  }

  get size(): number {
    return this.rows.length;
  }

  /** The position of the n-th served record of a key (n from 1). */
  indexOf(key: string, n: number): number | undefined {
    return this.at.get(keyOf(key, n));
  }

  identity(i: number): Identity & { n: number } {
    const { country, bankCode } = this.view.whoIs(this.rows[i]);
    return { key: this.keys[i], country, bankCode, n: this.order[i] };
  }

  record(i: number): Served {
    return { ...compared(this.view, this.rows[i]), base: this.keys[i], n: this.order[i] };
  }

  /** Positions of the first served record of each key of a country, with its row. */
  *firstOf(country: string): Iterable<{ key: string; index: number; row: KindRow }> {
    for (let i = 0; i < this.rows.length; i++) {
      const row = this.rows[i];
      if (this.order[i] === 1 && row.country === country) yield { key: this.keys[i], index: i, row };
    }
  }

  /** The map key of a served record (its key, with its order past the first). */
  mapKey(i: number): string {
    return keyOf(this.keys[i], this.order[i]);
  }
}

/**
 * The difference a change makes, built as the new file's good rows come (streamed: a million-row file is never
 * held): each row is `add`ed in file order and answers its entry (added, changed field by field, or null when
 * unchanged); `finish` then gives the served records the file removes (in the served order), the counts per
 * country and bank and the removal guard. Only the served records of the kind are held, keyed.
 */
export class DiffBuilder {
  private readonly view: KindView;
  private readonly served: ServedRecords;
  private readonly codes: CodeChanges;
  /** Which record of its key the last row `add`ed is (from 1; over 1: its key repeats in the file). */
  occurrence = 0;
  /** Records of the new file per key so far. */
  private readonly seen = new Map<string, number>();
  private readonly groups = new Map<string, GroupCounts>();
  private unchanged = 0;

  /** Rows of the kind served (all countries'). */
  private readonly servedTotal: number;

  /**
   * `country`: a branch change held to one country (scope.ts) reads only that country's served branches (a
   * branch's key holds its country, and the scope refuses a row of another before it is diffed).
   */
  constructor(kind: ChangeKind, served: DataSet, country?: string) {
    this.view = VIEWS[kind];
    this.served = new ServedRecords(this.view, served, kind === 'branches' ? country : undefined);
    this.servedTotal = rowsOfKind(kind, served);
    this.codes = new CodeChanges(this.view.identity, this.served);
  }

  /** The n-th served record with this key (from 1). */
  servedAt(key: string, n: number): KindRow | undefined {
    const i = this.served.indexOf(key, n);
    return i === undefined ? undefined : this.served.rows[i];
  }

  private count(op: DiffEntry['op'], country: string, bankCode: string | null) {
    const id = `${country}\u0000${bankCode ?? ''}`;
    let group = this.groups.get(id);
    if (!group) this.groups.set(id, (group = { country, bankCode, added: 0, removed: 0, changed: 0 }));
    group[op]++;
  }

  /** A good row of the new file, in file order: its entry, or null when the served record is the same. */
  add(row: KindRow): DiffEntry | null {
    const now = compared(this.view, row);
    const n = (this.seen.get(now.key) ?? 0) + 1;
    this.seen.set(now.key, n);
    this.occurrence = n;
    const key = keyOf(now.key, n);
    const at = this.served.indexOf(now.key, n);
    if (at === undefined) {
      const entry = { op: 'added', key: keyParts(key), country: now.country, bankCode: now.bankCode } as const;
      const added = { ...entry, before: null, after: now.fields, changedFields: [] };
      // Perhaps a served record with its code changed: told at finish (code-changes.ts).
      if (n === 1 && this.codes.hold(now, added)) return null;
      this.count('added', now.country, now.bankCode);
      return added;
    }
    const was = this.view.fields(this.served.rows[at]);
    const changedFields = Object.keys(now.fields).filter((field) => now.fields[field] !== was[field]);
    if (changedFields.length === 0) {
      this.unchanged++;
      return null;
    }
    this.count('changed', now.country, now.bankCode);
    const entry = { op: 'changed', key: keyParts(key), country: now.country, bankCode: now.bankCode } as const;
    return { ...entry, before: was, after: now.fields, changedFields };
  }

  /**
   * After the last row: the new records held as possible code changes (code-changes.ts), then each served record
   * the file replaces but does not give is removed (`onRemoved`, in the served order); then the counts and the
   * guard. `countries`: the new file's (what a branch file replaces).
   */
  finish(countries: readonly string[], onRemoved: (entry: DiffEntry) => void, area?: DiffArea): Difference {
    const scope = new Set(countries);
    const servedPerCountry = new Map<string, number>();
    const bank = area?.bank;
    const bankKey = bank && bankScopeKey(bank.country, bank.bankCode);
    const gone = (was: Identity & { n: number }) => (this.seen.get(was.key) ?? 0) < was.n;
    const removed = (was: Served) =>
      this.view.replaces(was, scope) &&
      gone({ key: was.base, country: was.country, bankCode: was.bankCode, n: was.n }) &&
      (!area || area.removes({ key: was.base, country: was.country, bankCode: was.bankCode }));
    this.codes.settle(removed, (entry) => {
      this.count(entry.op, entry.country, entry.bankCode);
      onRemoved(entry);
    });
    for (let i = 0; i < this.served.size; i++) {
      const was = this.served.identity(i);
      if (!this.view.replaces(was, scope)) continue;
      servedPerCountry.set(was.country, (servedPerCountry.get(was.country) ?? 0) + 1);
      if (bankKey && was.country === bank.country && was.bankCode === bank.bankCode)
        servedPerCountry.set(bankKey, (servedPerCountry.get(bankKey) ?? 0) + 1);
      if (!gone(was)) continue;
      const mapKey = this.served.mapKey(i);
      if (this.codes.isPaired(mapKey)) continue;
      if (area && !area.removes(was)) continue;
      this.count('removed', was.country, was.bankCode);
      onRemoved({
        op: 'removed',
        key: keyParts(mapKey),
        country: was.country,
        bankCode: was.bankCode,
        before: this.view.fields(this.served.rows[i]),
        after: null,
        changedFields: [],
      });
    }
    const byBank = [...this.groups.values()].sort((a, b) =>
      a.country === b.country ? (a.bankCode ?? '').localeCompare(b.bankCode ?? '') : a.country.localeCompare(b.country),
    );
    const byCountryMap = new Map<string, GroupCounts>();
    for (const g of byBank) {
      const c = byCountryMap.get(g.country) ?? { country: g.country, bankCode: null, added: 0, removed: 0, changed: 0 };
      c.added += g.added;
      c.removed += g.removed;
      c.changed += g.changed;
      byCountryMap.set(g.country, c);
    }
    const byCountry = [...byCountryMap.values()];
    const counts = { added: 0, removed: 0, changed: 0 };
    for (const c of byCountry) {
      counts.added += c.added;
      counts.removed += c.removed;
      counts.changed += c.changed;
    }

    // The guard of this change alone; the desk adds the removals counted before it (removal-ledger.ts).
    const served = { ...Object.fromEntries(servedPerCountry), [KIND_SCOPE]: this.servedTotal };
    const guard = removalGuard({ counts, byCountry }, served);
    return { byBank, served, summary: { counts, unchanged: this.unchanged, byCountry, guard } };
  }
}

/**
 * "10009 of 10026 branches of BD (99.8 %)", for messages; with removals counted from earlier changes,
 * "3000 of 10026 branches of BD (29.9 %; 1500 by earlier changes)".
 */
export function describeGuard(summary: DiffSummary, kind: ChangeKind): string {
  return summary.guard.flags
    .map((f) => {
      const now = f.country
        ? (summary.byCountry.find((c) => c.country === f.country)?.removed ?? 0)
        : summary.counts.removed;
      const earlier = f.removed > now ? `; ${f.removed - now} by earlier changes` : '';
      const bank = f.bankCode ? ` of bank ${f.bankCode}` : '';
      return `${f.removed} of ${f.served} ${kind}${bank}${f.country ? ` of ${f.country}` : ''} (${(100 * f.share).toFixed(1)} %${earlier})`;
    })
    .join('; ');
}
