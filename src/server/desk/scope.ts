import type { ChangeKind } from '../../contract/ops-changes';
import type { ChangeScope } from '../../contract/ops-edits';
import type { DataSet } from '../domain/data-set';
import { branchKey } from '../domain/natural-keys';
import { KIND_DEFINITIONS, type GoodRow, type ImportKindDefinition, type KindRow } from '../importer/kinds';
import type { FileProblem, FileRecord } from '../importer/read-file';
import { repairReplacementCharacters } from '../importer/repair-text';
import { kindRows, type DiffArea, type Identity } from './diff';

// A change's scope: what it may add, change or remove (contract/ops-edits.ts). Without one a change replaces what
// its file replaces (a branch file: the branches of its countries; partners, agents: the whole kind). With one:
// - {country}, {country, bankCode}: the file's rows must lie in it (a row outside is a problem of the row); the
//   served records of the scope the file leaves out are removed; nothing outside it is removed or changed.
// - {mode: "upsert"}: the file's records are added or changed; nothing is removed (but the keys of `removes`,
//   which only a change without a file carries: edits.ts).
// And whatever the scope, a column the file does not carry (a mapped file leaving address line 2 out) keeps its
// served value in a record matched by key. The file is staged, diffed and published as the effective file:
// the served records of what it replaces that its scope keeps, in their served order, each replaced by the
// file's record of its key where the file gives one, then the file's new records (`effective`). The desk keeps
// the file's own records; the effective file is made again against what is served at each re-diff and publish.

/** The scope as the desk keeps it on the change (desk_changes.scope): the maker's, and the keys an edit removes. */
export type StoredScope = ChangeScope & { removes?: string[] };

/** The scope as a change's summary shows it (without the keys an edit removes). */
export function shownScope(scope: StoredScope | null): ChangeScope | null {
  if (!scope) return null;
  if ('mode' in scope) return { mode: scope.mode };
  return scope.bankCode ? { country: scope.country, bankCode: scope.bankCode } : { country: scope.country };
}

/** What a change of the kind replaces, in words ("the branches of bank ABHY of IN"). */
export function scopeText(kind: ChangeKind, scope: StoredScope | null, countries: readonly string[]): string {
  const definition = KIND_DEFINITIONS[kind];
  if (!scope) return definition.scopeOf(countries);
  if ('mode' in scope) return `the ${kind} the change adds or changes${scope.removes?.length ? ' or removes' : ''}`;
  const bank = scope.bankCode ? ` of ${kind === 'agents' ? 'head office' : 'bank'} ${scope.bankCode}` : '';
  return `the ${kind}${bank} of ${scope.country}`;
}

const orNull = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

/** A file record's natural key from its cells, as the served row it becomes has it (domain/natural-keys.ts). */
const KEY_OF_CELLS: Record<ChangeKind, (cells: Record<string, string>) => string> = {
  branches: (c) =>
    branchKey({
      country: c.country,
      bankCode: c.bank_code,
      routingNumber: orNull(c.routing_number),
      branchName: repairReplacementCharacters(c.branch_name ?? ''),
      addressLine1: repairReplacementCharacters(orNull(c.address_line1)),
    }),
  agents: (c) => c.agent_code,
  partners: (c) => c.head_office_code,
};

/** A file record's natural key from its cells (KEY_OF_CELLS). */
export const keyOfCells = (kind: ChangeKind, cells: Record<string, string>) => KEY_OF_CELLS[kind](cells);

/** The column holding a record's bank (a branch's bank, an agent's head office); partners have none. */
const BANK_COLUMN: Record<ChangeKind, string | null> = {
  branches: 'bank_code',
  agents: 'head_office_code',
  partners: null,
};

/** The n-th served record of a key (from 1). */
export type ServedLookup = (key: string, n: number) => KindRow | undefined;

/** The n-th of a key (from 1), as one map key. */
const nthKey = (key: string, n: number) => (n === 1 ? key : `${key}\u001f#${n}`);

/** Why a scope cannot apply to a kind, or null (a bank scope has no meaning for head offices). */
export function scopeProblem(kind: ChangeKind, scope: ChangeScope): string | null {
  if ('bankCode' in scope && scope.bankCode && BANK_COLUMN[kind] === null)
    return 'a bank scope applies to branches (their bank) and agents (their head office), not to partners';
  return null;
}

/**
 * A change's scope applied to its file's records, against the served data: `take` checks and completes each
 * record as it is read, `area` tells the difference what it removes, `effective` makes the rows to build from.
 */
export class ScopedFile {
  private readonly definition: ImportKindDefinition<unknown>;
  private readonly cellsOf: (row: KindRow) => Record<string, string>;
  private readonly identity: (row: KindRow) => Identity;
  private readonly removals: Set<string> | null;
  /** Columns the file leaves out (kept from the served record); none: it carries them all. */
  private missing: string[] = [];
  private readonly seen = new Map<string, number>();
  private readonly bankColumn: string | null;

  constructor(
    private readonly kind: ChangeKind,
    private readonly scope: StoredScope | null,
    private readonly served: DataSet,
  ) {
    this.definition = KIND_DEFINITIONS[kind] as ImportKindDefinition<unknown>;
    this.cellsOf = this.definition.cellsOf(served);
    this.identity = kindRows(kind, served).identity;
    this.removals = scope && 'mode' in scope ? new Set(scope.removes ?? []) : null;
    this.bankColumn = BANK_COLUMN[kind];
  }

  /** The columns the file carries (told once its header is read). */
  carries(columns: readonly string[]) {
    this.missing = this.definition.columns.filter((column) => !columns.includes(column));
  }

  /** Whether the change removes records by key (an edit): it may hold no row at all. */
  get removesAny(): boolean {
    return (this.removals?.size ?? 0) > 0;
  }

  /** Whether the scoped file needs the effective file (a scope), or served values (a column left out). */
  get active(): boolean {
    return this.scope !== null || this.missing.length > 0;
  }

  /** Whether a record of this country and bank lies in the scope (may be added, changed or removed). */
  covers(country: string, bankCode: string | null): boolean {
    const scope = this.scope;
    if (!scope || 'mode' in scope) return true;
    return country === scope.country && (!scope.bankCode || bankCode === scope.bankCode);
  }

  /** What the difference removes of the served records the file does not give (null: as without a scope). */
  area(): DiffArea | undefined {
    const scope = this.scope;
    if (!scope) return undefined;
    if ('mode' in scope) return { removes: (record) => this.removals!.has(record.key) };
    return {
      removes: (record) => this.covers(record.country, record.bankCode),
      bank: scope.bankCode ? { country: scope.country, bankCode: scope.bankCode } : undefined,
    };
  }

  /**
   * A record of the file, in file order: its problems with the scope (a row outside it, or the key of a served
   * record outside it), and the columns it leaves out filled from the served record of its key.
   */
  take(fileRecord: FileRecord, servedAt: ServedLookup): FileProblem[] {
    const { line, record } = fileRecord;
    if (!this.active) return [];
    const key = KEY_OF_CELLS[this.kind](record);
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    const problems: FileProblem[] = [];
    const scope = this.scope;
    if (scope && !('mode' in scope)) {
      const outside = (column: string, value: string) =>
        problems.push({
          line,
          column,
          value,
          rule: 'scope.outside',
          reason: `${value || '(empty)'} is outside this change's scope (${scopeText(this.kind, scope, [])}): a row of the file must lie in it`,
        });
      if (record.country !== scope.country) outside('country', record.country);
      else if (scope.bankCode && this.bankColumn && record[this.bankColumn] !== scope.bankCode)
        outside(this.bankColumn, record[this.bankColumn]);
      if (problems.length) return problems;
    }
    const was = servedAt(key, n);
    if (!was) return problems;
    const servedId = this.identity(was);
    if (!this.covers(servedId.country, servedId.bankCode)) {
      const column =
        this.kind === 'branches' ? 'routing_number' : this.kind === 'agents' ? 'agent_code' : 'head_office_code';
      problems.push({
        line,
        column,
        value: record[column] ?? null,
        rule: 'scope.served-outside',
        reason: `a served record of ${servedId.country}${servedId.bankCode ? ` ${servedId.bankCode}` : ''} has this key, outside this change's scope: it cannot be changed here`,
      });
      return problems;
    }
    if (this.missing.length) {
      const cells = this.cellsOf(was);
      for (const column of this.missing) record[column] = cells[column] ?? '';
    }
    return problems;
  }

  /**
   * The rows a scoped change builds from (kinds.ts `build`, which replaces a branch file's countries, or the whole
   * kind): the served records of what the build replaces, in their served order, each the file's good row of its
   * key where it gives one, left out where the scope removes it, else kept as served; then the file's new rows.
   * `countries`: the change's (the countries a branch build replaces).
   */
  effective(good: GoodRow<unknown>[], countries: readonly string[]): GoodRow<unknown>[] {
    if (!this.scope) return good;
    const given = new Map<string, GoodRow<unknown>>();
    const counts = new Map<string, number>();
    for (const row of good) {
      const key = KEY_OF_CELLS[this.kind](row.record as Record<string, string>);
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      given.set(nthKey(key, n), row);
    }
    const replaced = new Set(countries);
    const area = this.area()!;
    const rows: GoodRow<unknown>[] = [];
    const servedCounts = new Map<string, number>();
    for (const row of kindRows(this.kind, this.served).rows) {
      const id = this.identity(row);
      if (this.kind === 'branches' && !replaced.has(id.country)) continue;
      const n = (servedCounts.get(id.key) ?? 0) + 1;
      servedCounts.set(id.key, n);
      const fromFile = given.get(nthKey(id.key, n));
      if (fromFile) {
        rows.push(fromFile);
        given.delete(nthKey(id.key, n));
      } else if (!area.removes(id)) rows.push({ line: 0, record: this.cellsOf(row) });
    }
    rows.push(...given.values());
    return rows;
  }

  /** The countries a change replaces: its good rows' and, with a scope, the scope's (an edit: its removals'). */
  countries(goodCountries: Iterable<string>): string[] {
    const all = new Set(goodCountries);
    const scope = this.scope;
    if (scope && !('mode' in scope)) all.add(scope.country);
    if (this.removals?.size)
      for (const row of kindRows(this.kind, this.served).rows) {
        const id = this.identity(row);
        if (this.removals.has(id.key)) all.add(id.country);
      }
    return [...all].sort();
  }
}

/** A served lookup over the served rows of a kind (the publish has no difference to ask). */
export function servedLookup(kind: ChangeKind, served: DataSet): ServedLookup {
  const { rows, identity } = kindRows(kind, served);
  const byKey = new Map<string, KindRow>();
  const counts = new Map<string, number>();
  for (const row of rows) {
    const { key } = identity(row);
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    byKey.set(nthKey(key, n), row);
  }
  return (key, n) => byKey.get(nthKey(key, n));
}
