import type { DiffEntry } from '../../contract/ops-changes';
import type { KindRow } from '../importer/kinds';

// A record whose code changed while the rest of it stayed: a bank corrects a branch's routing number (IFSC), a
// head office renumbers an agent. Matched by natural key alone that is an unrelated add and remove; the desk
// shows it as ONE entry, op `changed` with `previousKey` (the served record's key) and `routingNumber` (or
// `agentCode`) among its changed fields.
//
// A record's identity here is what a person recognises it by besides its code: a branch's country, bank, branch
// name and address line 1; an agent's head office, country, name and address line 1. A new record (its key not
// served) whose identity exactly one served record of its country has is held until the file's last row: if that
// served record is then removed (the file does not carry its code and the change replaces it), the two are one
// code change, else the new record is added. Held entries are handed on after the file's own entries, before
// the removed ones.
//
// Counted as one change (not an add and a removal): the counts per country and bank and the removal guard
// count the record as changed, so correcting codes never trips the guard. The record's history (record-history.ts)
// lists the entry under both keys: the old code's record ends with it, the new one begins with it.

type Fields = Record<string, string | null>;

/** A record as the difference compares it. */
export interface Compared {
  key: string;
  country: string;
  bankCode: string | null;
  fields: Fields;
}

/** A served record: its key's base and which record of that key it is (n from 1). */
export interface Served extends Compared {
  base: string;
  n: number;
}

/** What an identity reads: a record's country and fields (a compared record's, or a served row's own). */
export interface Identified {
  country: string;
  fields: Readonly<Record<string, string | number | null | undefined>>;
}

/** The served records as the pairing reads them (diff.ts): the first of each key of a country, compared on demand. */
export interface ServedSource {
  firstOf(country: string): Iterable<{ key: string; index: number; row: KindRow }>;
  record(index: number): Served;
}

const SEP = '\u001f';
const joined = (...parts: (string | null | undefined)[]) => parts.map((p) => p ?? '').join(SEP);

/** A branch with a routing number: country, bank, name, address line 1 (one without: its key is all these). */
const upper = (value: string | number | null | undefined) =>
  value === null || value === undefined ? null : String(value).toUpperCase();
const plain = (value: string | number | null | undefined) =>
  value === null || value === undefined ? null : String(value);

export const branchIdentity = (c: Identified): string | null =>
  c.fields.routingNumber
    ? joined(c.country, plain(c.fields.bankCode), upper(c.fields.branchName), upper(c.fields.addressLine1))
    : null;

export const agentIdentity = (c: Identified): string | null =>
  joined(c.country, plain(c.fields.headOfficeCode), upper(c.fields.agentName), upper(c.fields.addressLine1));

/** A served record to pair with: ambiguous (two with one identity) is never paired. */
type Candidate = { key: string; index: number } | 'ambiguous';

export class CodeChanges {
  /** Per country, built on the first new record of that country: identity → the served record. */
  private readonly byCountry = new Map<string, Map<string, Candidate>>();
  private readonly held: { entry: DiffEntry; identity: string }[] = [];
  private readonly paired = new Set<string>();

  constructor(
    private readonly identityOf: ((c: Identified) => string | null) | undefined,
    private readonly served: ServedSource,
  ) {}

  private candidates(country: string): Map<string, Candidate> {
    let map = this.byCountry.get(country);
    if (map) return map;
    map = new Map();
    // A served row has the fields a compared record has, under the same names (domain/kind-columns.ts).
    for (const { key, index, row } of this.served.firstOf(country)) {
      const identity = this.identityOf!({ country, fields: row as unknown as Identified['fields'] });
      if (identity === null) continue;
      map.set(identity, map.has(identity) ? 'ambiguous' : { key, index });
    }
    this.byCountry.set(country, map);
    return map;
  }

  /** A new record's entry (op added): true when it is held until `settle` (a served record has its identity). */
  hold(now: Compared, entry: DiffEntry): boolean {
    if (!this.identityOf) return false;
    const candidates = this.candidates(now.country);
    // A country with nothing served (a new one): no identity to make.
    if (candidates.size === 0) return false;
    const identity = this.identityOf(now);
    if (identity === null) return false;
    const candidate = candidates.get(identity);
    if (!candidate || candidate === 'ambiguous') return false;
    this.held.push({ entry, identity });
    return true;
  }

  /**
   * After the file's last row: each held entry, in file order, as a code change of its served record when that
   * record is `removed` (and not paired already), else as added.
   */
  settle(removed: (record: Served) => boolean, onEntry: (entry: DiffEntry) => void): void {
    for (const { entry, identity } of this.held) {
      const candidate = this.byCountry.get(entry.country)?.get(identity);
      const record = candidate && candidate !== 'ambiguous' ? this.served.record(candidate.index) : null;
      if (!record || candidate === 'ambiguous' || !candidate || this.paired.has(candidate.key) || !removed(record)) {
        onEntry(entry);
        continue;
      }
      this.paired.add(candidate.key);
      const before = record.fields;
      const after = entry.after!;
      const changedFields = Object.keys(after).filter((field) => after[field] !== before[field]);
      onEntry({ ...entry, op: 'changed', previousKey: candidate.key.split(SEP), before, changedFields });
    }
    this.held.length = 0;
  }

  /** Whether a served record became a code change (it is not removed). */
  isPaired(key: string): boolean {
    return this.paired.has(key);
  }
}

/** The fields a difference is searched by besides the key: the record's names and code. */
const SEARCHED_FIELDS = ['routingNumber', 'branchName', 'bankName', 'agentName', 'agentCode', 'name', 'code'];

/** An entry's text the difference's search (`q`) reads: its keys, names and codes before and after, lower case. */
export function searchTextOf(entry: DiffEntry): string {
  const parts = [...entry.key, ...(entry.previousKey ?? [])];
  for (const fields of [entry.before, entry.after])
    for (const field of SEARCHED_FIELDS) if (fields?.[field]) parts.push(fields[field]);
  return [...new Set(parts)].join('\n').toLowerCase();
}
