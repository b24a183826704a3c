import type { ChangeKind, DiffSummary } from '../../contract/ops-changes';
import type { DataSet } from '../domain/data-set';

// What tellers are told each served row came from (the data sources: file, SHA-256, import time) after a
// rollback. A rollback's file is a version's whole snapshot, every country of the kind in it: published as any
// branch file, it would name itself the source of countries whose rows it left as they were. Those countries
// keep the source they had; the rollback is the source of the countries it changed.

/** The countries of a change whose rows its difference leaves as they are. */
export function untouchedCountries(countries: readonly string[], diff: DiffSummary | null): string[] {
  const touched = new Set(
    (diff?.byCountry ?? []).filter((c) => c.added + c.removed + c.changed > 0).map((c) => c.country),
  );
  return countries.filter((country) => !touched.has(country));
}

/** `next` with the served sources of the `untouched` branch countries restored (see above). */
export function keepSources(kind: ChangeKind, served: DataSet, next: DataSet, untouched: readonly string[]): DataSet {
  if (kind !== 'branches' || untouched.length === 0) return next;
  const keep = new Set(untouched);
  const perCountry = new Map<string, number>();
  for (const b of next.branches) perCountry.set(b.country, (perCountry.get(b.country) ?? 0) + 1);
  const rows = (countries: string[]) => countries.reduce((n, c) => n + (perCountry.get(c) ?? 0), 0);
  /** A branch source narrowed to the countries `pick` keeps; none when it keeps none. */
  const narrowed = (pick: (country: string) => boolean) => (source: DataSet['sources'][number]) => {
    if (source.kind !== 'branches') return [source];
    const countries = (source.countries ?? []).filter(pick);
    if (countries.length === 0) return [];
    return countries.length === source.countries!.length ? [source] : [{ ...source, countries, rows: rows(countries) }];
  };
  const restored = served.sources.filter((s) => s.kind === 'branches').flatMap(narrowed((c) => keep.has(c)));
  const changed = next.sources.flatMap(narrowed((c) => !keep.has(c)));
  return { ...next, sources: [...changed, ...restored] };
}
