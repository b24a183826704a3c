import { z } from 'zod';
import { changeKind, opsPage } from './ops-changes';

export { parseRecordKey, recordKeyOf } from './record-key';

// The published records as the operations desk reads them: a search over what is served (branches, head
// offices, agents) and one record's page with its whole life — every published version that added, changed or
// removed it. Shared by the desk's routes (/v1/ops/records) and the portal.

/**
 * A record's key in a URL: its natural key's parts (a branch: country and routing number, or country, bank code,
 * branch name and address line 1 where the country has no routing numbers; an agent: its code; a head office:
 * its code), each percent-encoded (encodeURIComponent, and `~` as %7E), joined with `~`. A code-keyed record's
 * key is readable as it is (`IN~ABHY0065001`); put it in a path with encodeURIComponent like any segment.
 */
export const recordKey = z
  .string()
  .min(1)
  .max(2000)
  .meta({ description: 'The record key as a search answers it (`IN~ABHY0065001`, an agent or head office code).' });

const recordsPageNumber = z.coerce.number().int().min(1).max(1_000_000).default(1);
const recordsPageSize = z.coerce.number().int().min(1).max(100).default(20);

export const recordsQuery = z.strictObject({
  kind: changeKind,
  q: z.string().trim().max(200).optional().meta({
    description:
      'A code (routing number, IFSC, bank code, agent code, head office code) found exactly, or a part of a name, bank name, head office name, city, district or address line 1 (any case). Absent: every record of the kind (and country).',
  }),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'a country code: two upper-case letters')
    .optional()
    .meta({ description: 'Only records of this receiving country (ISO 3166-1 alpha-2).' }),
  pageNumber: recordsPageNumber,
  pageSize: recordsPageSize,
});
export type RecordsQuery = z.infer<typeof recordsQuery>;

/** A record's fields as served and as its history compares them (the import format's columns, camelCase). */
export const recordFields = z.record(z.string(), z.string().nullable());
export type RecordFields = z.infer<typeof recordFields>;

export const recordMatch = z.object({
  kind: changeKind,
  key: recordKey,
  country: z.string(),
  /** The routing number (IFSC) of a branch, or the agent's or head office's code; null for a branch without. */
  code: z.string().nullable(),
  name: z.string(),
  /** A branch's bank code, an agent's head office code; null for a head office. */
  bankCode: z.string().nullable(),
  /** A branch's bank name, an agent's head office name; null for a head office. */
  bankName: z.string().nullable(),
  city: z.string().nullable(),
});
export type RecordMatch = z.infer<typeof recordMatch>;

export const recordsPage = opsPage(recordMatch);

export const recordPathParams = z.strictObject({ kind: changeKind, key: recordKey });

export const RECORD_HISTORY_OPS = ['add', 'change', 'remove'] as const;

export const recordHistoryEntry = z.object({
  versionId: z.number().int(),
  op: z.enum(RECORD_HISTORY_OPS),
  publishedAt: z.string(),
  stagedBy: z.string().nullable(),
  approvedBy: z.string().nullable(),
  comment: z.string().nullable(),
  fileName: z.string(),
  fileSha256: z.string(),
  /** The record's fields before the version: null for an add. */
  before: recordFields.nullable(),
  /** The record's fields after it: null for a remove. */
  after: recordFields.nullable(),
  changedFields: z.array(z.string()),
});
export type RecordHistoryEntry = z.infer<typeof recordHistoryEntry>;

export const recordPage = z.object({
  kind: changeKind,
  key: recordKey,
  /** The record as served now; null when it is not (removed: its history says when). */
  record: recordFields.nullable(),
  /** Each published version that added, changed or removed it, newest first. */
  history: z.array(recordHistoryEntry),
});
export type RecordPage = z.infer<typeof recordPage>;
