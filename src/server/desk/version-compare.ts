import type { ChangeKind, DiffEntry, DiffQuery } from '../../contract/ops-changes';
import { recordKeyOf } from '../../contract/record-key';
import { searchTextOf } from './code-changes';
import type { VersionComparison } from '../../contract/ops-versions';
import type { DataSet } from '../domain/data-set';
import { readFileRecords } from '../importer/layouts';
import { KIND_DEFINITIONS, type ImportKindDefinition, type KindRow } from '../importer/kinds';
import { ProblemError } from '../problems';
import type { LookupStore } from '../store/store';
import { deskDbOf } from './db';
import { DiffBuilder } from './diff';
import { keptVersion, versionDataOf } from './version-files';

// Two kept versions of a kind compared: the records of the later snapshot diffed against the earlier one's by
// the desk's own difference (diff.ts), so an entry has the shape of a change's and the comparison of a version
// with the one before it is that version's change. Made once per pair and kept for its pages (the last few
// pairs per store): a comparison is an analyst's occasional question, not a lookup.

interface Comparison {
  kind: ChangeKind;
  entries: DiffEntry[];
  summary: Pick<VersionComparison, 'counts' | 'unchanged' | 'byCountry' | 'byBank'>;
}

const KEPT_PER_STORE = 4;
const made = new WeakMap<LookupStore, Map<string, Promise<Comparison>>>();

const ROWS_OF: Record<ChangeKind, keyof Pick<DataSet, 'branches' | 'agents' | 'headOffices'>> = {
  branches: 'branches',
  agents: 'agents',
  partners: 'headOffices',
};

async function compare(store: LookupStore, from: number, to: number): Promise<Comparison> {
  const db = deskDbOf(store);
  const before = await versionDataOf(db, from);
  const after = await versionDataOf(db, to);
  const kind = before.version.kind;
  if (after.version.kind !== kind)
    throw new ProblemError(
      'invalidRequest',
      `Versions ${from} and ${to} are of different kinds: compare two of one kind.`,
      [{ name: 'to', in: 'query', message: `is a version of ${after.version.kind}, not ${kind}` }],
    );
  const { dataSet: served } = await store.readDataSet();
  // Snapshot rows become served rows as a staged file's do (the rollback of a version reads its snapshot so).
  const check = (KIND_DEFINITIONS[kind] as ImportKindDefinition<unknown>).prepare(served);
  const rowsOf = async (bytes: Buffer): Promise<KindRow[]> =>
    (await readFileRecords(bytes, kind, undefined, { fileName: 'snapshot.csv' })).records.map((r) =>
      check.row(r.record),
    );
  const earlier = await rowsOf(before.bytes);
  const later = await rowsOf(after.bytes);
  const builder = new DiffBuilder(kind, {
    ...served,
    branches: [],
    agents: [],
    headOffices: [],
    [ROWS_OF[kind]]: earlier,
  });
  const entries: DiffEntry[] = [];
  // Each entry with its record's page, as a change's entries have it (diff-rows.ts).
  const keep = (entry: DiffEntry) => entries.push({ ...entry, recordKey: recordKeyOf(entry.key) });
  for (const row of later) {
    const entry = builder.add(row);
    if (entry) keep(entry);
  }
  const countries = new Set<string>();
  for (const row of [...earlier, ...later]) countries.add(row.country);
  const diff = builder.finish([...countries], keep);
  const { counts, unchanged, byCountry } = diff.summary;
  return { kind, entries, summary: { counts, unchanged, byCountry, byBank: diff.byBank } };
}

function comparisonOf(store: LookupStore, from: number, to: number): Promise<Comparison> {
  let kept = made.get(store);
  if (!kept) made.set(store, (kept = new Map()));
  const key = `${from}:${to}`;
  let comparison = kept.get(key);
  if (!comparison) {
    comparison = compare(store, from, to);
    kept.set(key, comparison);
    // A refused pair (a pruned version, two kinds) is not kept: it may be asked again after a publish.
    comparison.catch(() => kept.delete(key));
    for (const old of kept.keys()) if (kept.size > KEPT_PER_STORE) kept.delete(old);
  }
  return comparison;
}

/**
 * One page of the comparison of versions `from` → `to`, filtered as a change's difference is and in the same
 * order: the difference's own, or by operation, country and bank.
 */
export async function compareVersions(
  store: LookupStore,
  from: number,
  to: number,
  query: DiffQuery,
): Promise<VersionComparison> {
  // Both still kept (a comparison made before the retention pruned one is not answered from memory).
  const db = deskDbOf(store);
  await keptVersion(db, from);
  await keptVersion(db, to);
  const comparison = await comparisonOf(store, from, to);
  const positioned = comparison.entries.map((entry, seq) => ({ entry, seq }));
  const chosen = positioned.filter(
    ({ entry }) =>
      (query.op === undefined || entry.op === query.op) &&
      (query.country === undefined || entry.country === query.country) &&
      (query.bankCode === undefined || entry.bankCode === query.bankCode) &&
      (!query.q || searchTextOf(entry).includes(query.q.toLowerCase())),
  );
  const by = (key: (e: DiffEntry) => string) => (a: { entry: DiffEntry }, b: { entry: DiffEntry }) =>
    key(a.entry).localeCompare(key(b.entry));
  const order = query.op
    ? by((e) => `${e.op}\u0000${e.country}\u0000${e.bankCode ?? ''}`)
    : query.country
      ? by((e) => `${e.country}\u0000${e.bankCode ?? ''}`)
      : query.bankCode
        ? by(() => '')
        : null;
  // Array.prototype.sort is stable: ties keep the difference's order.
  if (order) chosen.sort(order);
  const start = (query.pageNumber - 1) * query.pageSize;
  return {
    data: chosen.slice(start, start + query.pageSize).map(({ entry }) => entry),
    pagination: {
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      totalItems: chosen.length,
      totalPages: Math.ceil(chosen.length / query.pageSize),
    },
    from,
    to,
    kind: comparison.kind,
    ...comparison.summary,
  };
}
