import { z } from 'zod';

// The data-quality report of the published data: each check with its count, its first findings and
// a CSV of all of them. The server computes it (server/desk/quality.ts) over the served data set; the desk's
// route and the portal's quality screen read these schemas. Plain schemas: the portal bundles this file.

export const QUALITY_CHECKS = [
  'duplicate-routing-number',
  'duplicate-agent-code',
  'duplicate-head-office-code',
  'branch-without-district',
  'state-not-listed',
  'bank-without-head-office',
  'head-office-without-bank',
  'agent-phone-invalid',
] as const;

export const qualityCheckId = z.enum(QUALITY_CHECKS).meta({
  description:
    "duplicate-routing-number: a branch repeating the routing number (IFSC) of an earlier branch of its country; duplicate-agent-code, duplicate-head-office-code: a record repeating an earlier code; branch-without-district: a branch of a country whose branch search filters by district (Bangladesh) with no district; state-not-listed: a branch or agent whose state is not in its country's list (GET /v1/states); bank-without-head-office: a bank (country + bank code) of the branches no head office offering delivery mode 04 pays into; head-office-without-bank: a head office offering delivery mode 04 whose banks have no branch; agent-phone-invalid: an agent phone number that is not a valid number of its country.",
});
export type QualityCheckId = z.infer<typeof qualityCheckId>;

/** The desk's kind of a finding's record, for its page (a bank has none). */
export const KIND_OF_RECORD: Partial<
  Record<'branch' | 'agent' | 'headOffice' | 'bank', 'branches' | 'agents' | 'partners'>
> = { branch: 'branches', agent: 'agents', headOffice: 'partners' };

/** One record a check found. */
export const qualityFinding = z.object({
  check: qualityCheckId,
  record: z.enum(['branch', 'agent', 'headOffice', 'bank']),
  country: z.string(),
  /** The record's code: routing number, agent code, head office code or bank code (null: a branch without one). */
  code: z.string().nullable(),
  /** Bank + branch name, agent name, head office name, bank name. */
  name: z.string(),
  /** The field at fault and its value as served. */
  field: z.string(),
  value: z.string().nullable(),
  detail: z.string(),
  /** The record's key for its page (GET /v1/ops/records/{kind}/{key}); null for a bank (no record of its own). */
  recordKey: z.string().nullable().optional(),
});
export type QualityFinding = z.infer<typeof qualityFinding>;

export const qualityCheckResult = z.object({
  check: qualityCheckId,
  count: z.int().nonnegative(),
  /** The first findings (in served order), at most the report's `examplesLimit`. */
  examples: z.array(qualityFinding),
});
export type QualityCheckResult = z.infer<typeof qualityCheckResult>;

export const qualityReport = z.object({
  /** The data version the report was computed on (null when computed on a data set outside a store). */
  dataVersion: z.string().nullable(),
  generatedAt: z.string(),
  examplesLimit: z.int().positive(),
  /** Every check, in QUALITY_CHECKS order, also those that found nothing. */
  checks: z.array(qualityCheckResult),
});
export type QualityReport = z.infer<typeof qualityReport>;

/** The CSV download's columns, in order. */
export const QUALITY_CSV_COLUMNS = ['check', 'record', 'country', 'code', 'name', 'field', 'value', 'detail'] as const;

/**
 * The findings a staged change would ADD to what is served: the checks run on the staged result (what would be
 * served if it were approved), less the findings of what is served now. `computed` false: the change has no
 * difference to check (its file could not be read, or it is still validating).
 */
export const changeQuality = z.object({
  computed: z.boolean(),
  /** New findings of every check. */
  total: z.int().nonnegative(),
  /** The checks that found something new, in QUALITY_CHECKS order, with their first findings. */
  checks: z.array(qualityCheckResult),
});
export type ChangeQuality = z.infer<typeof changeQuality>;
