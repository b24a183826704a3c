import type { ChangeKind, DiffEntry, DiffSummary, GroupCounts, GuardFlag } from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';
import { AGENT_TABLE, BRANCH_TABLE, type KindTable } from '../domain/kind-columns';
import { agentKey, branchKey, headOfficeKey, keyParts } from '../domain/natural-keys';

// The difference a change makes to the published data: records of its kind matched by their natural key
// (domain/natural-keys.ts), each added, removed or changed (field by field), with counts per country and bank
// and the removal guard. Only the records the change replaces are compared: a branch file replaces the branches
// of the countries it holds, a partners or agents file the whole kind.

type Fields = Record<string, string | null>;

interface KindView {
  /** The records the change replaces, before and after. */
  records(
    dataSet: DataSet,
    countries: Set<string>,
  ): { key: string; country: string; bankCode: string | null; fields: Fields }[];
  /** Rows of the kind served (the guard's "of a kind"). */
  total(dataSet: DataSet): number;
}

const text = (value: string | number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

/** A row's fields as the difference compares them: the kind's declared columns (domain/kind-columns.ts). */
const fieldsOf = <R>(kind: KindTable<R>, row: R): Fields =>
  Object.fromEntries(kind.columns.map((c) => [c.field, text(row[c.field] as string | null | undefined)]));

const VIEWS: Record<ChangeKind, KindView> = {
  branches: {
    records: (dataSet, countries) =>
      dataSet.branches
        .filter((b) => countries.has(b.country))
        .map((b) => ({
          key: branchKey(b),
          country: b.country,
          bankCode: b.bankCode,
          fields: fieldsOf(BRANCH_TABLE, b),
        })),
    total: (dataSet) => dataSet.branches.length,
  },
  agents: {
    records: (dataSet) =>
      dataSet.agents.map((a) => ({
        key: agentKey(a),
        country: a.country,
        bankCode: a.headOfficeCode,
        fields: fieldsOf(AGENT_TABLE, a),
      })),
    total: (dataSet) => dataSet.agents.length,
  },
  partners: {
    records: (dataSet) =>
      dataSet.headOffices.map((h) => ({
        key: headOfficeKey(h),
        country: h.country,
        bankCode: null,
        fields: {
          code: h.code,
          country: h.country,
          name: h.name,
          networkName: h.networkName,
          payoutType: h.payoutType,
          deliveryModes: h.deliveryModes.join(' '),
          bankCodes: h.bankCodes.join(' '),
          demoLocations: String(h.demoLocations),
        },
      })),
    total: (dataSet) => dataSet.headOffices.length,
  },
};

/** Rows of the kind in a data set (a version's row count). */
export const rowsOfKind = (kind: ChangeKind, dataSet: DataSet) => VIEWS[kind].total(dataSet);

export interface Difference {
  entries: DiffEntry[];
  summary: DiffSummary;
  byBank: GroupCounts[];
}

/** A removal share above this flags the change (more than 20 %). */
export const REMOVAL_GUARD = 0.2;

export function computeDiff(kind: ChangeKind, served: DataSet, next: DataSet, countries: string[]): Difference {
  const view = VIEWS[kind];
  const scope = new Set(countries);
  const keyed = (records: ReturnType<KindView['records']>) => {
    const byKey = new Map<string, (typeof records)[number]>();
    // Two records with one key (a country without routing numbers listing a branch twice): told apart by
    // their order, so neither is lost from the difference.
    for (const record of records) {
      let key = record.key;
      for (let n = 2; byKey.has(key); n++) key = `${record.key}\u001f#${n}`;
      byKey.set(key, { ...record, key });
    }
    return byKey;
  };
  const before = keyed(view.records(served, scope));
  const after = keyed(view.records(next, scope));

  const entries: DiffEntry[] = [];
  const groups = new Map<string, GroupCounts>();
  const count = (op: DiffEntry['op'], country: string, bankCode: string | null) => {
    const id = `${country}\u0000${bankCode ?? ''}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { country, bankCode, added: 0, removed: 0, changed: 0 }));
    group[op]++;
  };
  let unchanged = 0;
  // Changed and added in the new file's order, then the removed in the served order.
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was) {
      entries.push({
        op: 'added',
        key: keyParts(key),
        country: now.country,
        bankCode: now.bankCode,
        before: null,
        after: now.fields,
        changedFields: [],
      });
      count('added', now.country, now.bankCode);
      continue;
    }
    const changedFields = Object.keys(now.fields).filter((field) => now.fields[field] !== was.fields[field]);
    if (changedFields.length === 0) {
      unchanged++;
      continue;
    }
    entries.push({
      op: 'changed',
      key: keyParts(key),
      country: now.country,
      bankCode: now.bankCode,
      before: was.fields,
      after: now.fields,
      changedFields,
    });
    count('changed', now.country, now.bankCode);
  }
  for (const [key, was] of before) {
    if (after.has(key)) continue;
    entries.push({
      op: 'removed',
      key: keyParts(key),
      country: was.country,
      bankCode: was.bankCode,
      before: was.fields,
      after: null,
      changedFields: [],
    });
    count('removed', was.country, was.bankCode);
  }

  const byBank = [...groups.values()].sort((a, b) =>
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

  // The guard: more than 20 % of a country's served rows, or of the kind's, removed.
  const servedPerCountry = new Map<string, number>();
  for (const record of before.values())
    servedPerCountry.set(record.country, (servedPerCountry.get(record.country) ?? 0) + 1);
  const flags: GuardFlag[] = [];
  for (const c of byCountry) {
    const servedRows = servedPerCountry.get(c.country) ?? 0;
    if (servedRows > 0 && c.removed / servedRows > REMOVAL_GUARD)
      flags.push({
        scope: 'country',
        country: c.country,
        removed: c.removed,
        served: servedRows,
        share: c.removed / servedRows,
      });
  }
  const servedTotal = view.total(served);
  if (servedTotal > 0 && counts.removed / servedTotal > REMOVAL_GUARD)
    flags.push({
      scope: 'kind',
      country: null,
      removed: counts.removed,
      served: servedTotal,
      share: counts.removed / servedTotal,
    });

  return {
    entries,
    byBank,
    summary: { counts, unchanged, byCountry, guard: { threshold: REMOVAL_GUARD, flagged: flags.length > 0, flags } },
  };
}

/** "10009 of 10026 branches of BD (99.8 %)", for messages. */
export function describeGuard(summary: DiffSummary, kind: ChangeKind): string {
  return summary.guard.flags
    .map(
      (f) =>
        `${f.removed} of ${f.served} ${kind}${f.country ? ` of ${f.country}` : ''} (${(100 * f.share).toFixed(1)} %)`,
    )
    .join('; ');
}
