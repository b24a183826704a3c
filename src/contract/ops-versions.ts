import { z } from 'zod';
import { changeKind, diffEntry, diffQuery, diffSummary, groupCounts, opsPage } from './ops-changes';

// Published versions taken away and compared (routes/v1/ops/versions.ts): the original file, the data in the
// import format, a release note, and the difference between two kept versions in a change's entry shape.

export const versionIdParams = z.strictObject({ id: z.coerce.number().int().min(1) });

export const versionCompareQuery = diffQuery.extend({
  from: z.coerce.number().int().min(1).meta({ description: 'The earlier version (any kept version of the kind).' }),
  to: z.coerce.number().int().min(1).meta({ description: 'The later version, of the same kind.' }),
});
export type VersionCompareQuery = z.infer<typeof versionCompareQuery>;

/** A page of the difference from one version to another, with its counts (as a change's detail has them). */
export const versionComparison = opsPage(diffEntry).extend({
  from: z.number().int(),
  to: z.number().int(),
  kind: changeKind,
  counts: diffSummary.shape.counts,
  unchanged: diffSummary.shape.unchanged,
  byCountry: diffSummary.shape.byCountry,
  byBank: z.array(groupCounts),
});
export type VersionComparison = z.infer<typeof versionComparison>;

/** The release note's CSV columns (one line per total, country, bank and record). */
export const RELEASE_NOTE_COLUMNS = [
  'line',
  'country',
  'bank_code',
  'added',
  'removed',
  'changed',
  'op',
  'code',
  'name',
] as const;
