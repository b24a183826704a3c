import { z } from 'zod';

// The operations desk's changes: what a maker stages (a file of one kind), what the desk reports about it
// (validation problems, the difference against the published data, the removal guard), the checker's
// decisions, the published versions and the ops audit trail. Shared by the desk's engine
// (src/server/desk/), its HTTP routes (/v1/ops/…) and the portal's operations screens.

export const CHANGE_KINDS = ['branches', 'partners', 'agents'] as const;
export const changeKind = z.enum(CHANGE_KINDS).meta({
  description:
    'branches: a bank-branch file (replaces the branches of the countries it holds); partners: the head-office file; agents: the agent file (each replaces the whole kind).',
});
export type ChangeKind = z.infer<typeof changeKind>;

/**
 * validating: being read, validated and diffed (progress in `progress`); staged: waiting for a checker
 * (with errors it cannot be approved); stale: staged against a data version no longer served (approving
 * re-diffs it against the current data and puts it back to staged); approved: being published;
 * published: served; rejected / discarded / expired: closed without being served; failed: staging broke
 * (the message in `failure`).
 */
export const CHANGE_STATUSES = [
  'validating',
  'staged',
  'stale',
  'approved',
  'published',
  'rejected',
  'discarded',
  'expired',
  'failed',
] as const;
export const changeStatus = z.enum(CHANGE_STATUSES);
export type ChangeStatus = z.infer<typeof changeStatus>;
/** The inbox's filter: a status, or pending (staged or stale: every change waiting for a decision). */
export const CHANGE_FILTERS = ['pending', ...CHANGE_STATUSES] as const;
export type ChangeFilter = (typeof CHANGE_FILTERS)[number];

export const OPS_ROLES = ['maker', 'checker', 'admin'] as const;
export const opsRole = z.enum(OPS_ROLES);
export type OpsRole = z.infer<typeof opsRole>;
export const opsVia = z.enum(['session', 'api-key', 'shell']);
export type OpsVia = z.infer<typeof opsVia>;

const id = z.string().min(1).max(64);
const isoTime = z.string().meta({ description: 'ISO 8601 time (UTC).' });

/** One fault of one row (or of the file, row null), with the value that failed. */
export const validationProblem = z.object({
  row: z.number().int().nullable().meta({ description: 'Line of the file (the header is line 1); null: the file.' }),
  column: z.string().nullable(),
  value: z.string().nullable(),
  message: z.string(),
  rule: z.string().meta({ description: 'The rule broken, the same for every row that breaks it (counts per rule).' }),
});
export type ValidationProblem = z.infer<typeof validationProblem>;

export const ruleCount = z.object({ rule: z.string(), column: z.string().nullable(), count: z.number().int() });
export type RuleCount = z.infer<typeof ruleCount>;

export const DIFF_OPS = ['added', 'removed', 'changed'] as const;
export const diffOp = z.enum(DIFF_OPS);
export type DiffOp = z.infer<typeof diffOp>;

/** A record's fields as the desk shows them (the kind's columns, camelCase, text or null). */
const fields = z.record(z.string(), z.string().nullable());

export const diffEntry = z.object({
  op: diffOp,
  key: z.array(z.string()).meta({
    description:
      'The natural key, in parts: country + routing number, or country + bank code + branch name + address line 1; agent code; head-office code.',
  }),
  country: z.string(),
  bankCode: z.string().nullable().meta({ description: 'Branches: the bank; agents: the head office; partners: null.' }),
  before: fields.nullable(),
  after: fields.nullable(),
  changedFields: z.array(z.string()),
  previousKey: z.array(z.string()).optional().meta({
    description:
      "A code change (op changed): the served record's key, whose code the change replaces by `key`'s (same bank, name and address). Counted as one change, never as a removal.",
  }),
  recordKey: z.string().optional().meta({
    description: "The record's key for GET /v1/ops/records/{kind}/{key} (contract/ops-records.ts).",
  }),
});
export type DiffEntry = z.infer<typeof diffEntry>;

export const diffCounts = z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() });
export type DiffCounts = z.infer<typeof diffCounts>;

export const groupCounts = diffCounts.extend({ country: z.string(), bankCode: z.string().nullable() });
export type GroupCounts = z.infer<typeof groupCounts>;

/** A removal share over the guard's threshold, counted since the scope's reference version. */
export const guardFlag = z.object({
  scope: z.enum(['country', 'kind', 'bank']).meta({
    description: "bank: a change scoped to one bank of one country, measured against that bank's rows there.",
  }),
  country: z.string().nullable(),
  bankCode: z.string().nullable().optional().meta({ description: 'The bank of a `bank` flag.' }),
  removed: z.number().int().meta({
    description:
      'Rows removed since the reference version (the last whose removals a checker confirmed here, or the one in force 7 days back): this change and the ones published since.',
  }),
  served: z.number().int().meta({ description: 'Rows the reference version served.' }),
  share: z.number().meta({ description: 'removed / served, 0–1.' }),
});
export type GuardFlag = z.infer<typeof guardFlag>;

export const diffSummary = z.object({
  counts: diffCounts,
  unchanged: z.number().int(),
  /** Counts per country (bankCode null) — per bank in the change's `byBank`. */
  byCountry: z.array(groupCounts),
  /** Over the guard (more than `threshold` of a country's or the kind's rows removed): needs confirmRemovals. */
  guard: z.object({ threshold: z.number(), flagged: z.boolean(), flags: z.array(guardFlag) }),
});
export type DiffSummary = z.infer<typeof diffSummary>;

export const stagingProgress = z.object({
  phase: z.enum(['reading', 'validating', 'diffing', 'saving', 'done']),
  done: z.number().int(),
  total: z.number().int(),
});
export type StagingProgress = z.infer<typeof stagingProgress>;

/** What a change may add, change or remove (ops-edits.ts); null: the whole kind (a branch file: its countries). */
const changeScopeShown = z
  .union([z.object({ mode: z.literal('upsert') }), z.object({ country: z.string(), bankCode: z.string().optional() })])
  .nullable()
  .meta({
    description:
      'The change\'s scope: null for the whole kind (a branch file: the countries it holds), {country}, {country, bankCode} (one bank of one country) or {mode: "upsert"} (records added or changed, none removed but by a change without a file).',
  });

export const changeSummary = z.object({
  id,
  kind: changeKind,
  status: changeStatus,
  countries: z
    .array(z.string())
    .meta({ description: 'Receiving countries the file holds (branches: those replaced).' }),
  fileName: z.string(),
  sha256: z.string(),
  rows: z.object({ read: z.number().int(), valid: z.number().int(), bad: z.number().int() }),
  problemCount: z.number().int(),
  /** Null while validating, or when the file could not be read at all. */
  diff: diffSummary.nullable(),
  baseVersion: z.string().meta({ description: 'The data version the difference was computed against.' }),
  rollbackOf: z.number().int().nullable().meta({ description: 'The version this change restores, when a rollback.' }),
  stagedBy: z.string(),
  stagedVia: opsVia,
  stagedAt: isoTime,
  updatedAt: isoTime,
  expiresAt: isoTime.nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: isoTime.nullable(),
  comment: z.string().nullable().meta({ description: "The checker's approval comment or rejection reason." }),
  progress: stagingProgress.nullable(),
  failure: z.string().nullable(),
  /** True when the change can be approved: staged, no problems. */
  approvable: z.boolean(),
  scope: changeScopeShown,
});
export type ChangeSummary = z.infer<typeof changeSummary>;

/** The change with its counts per rule and per bank (the report's header). */
export const changeDetail = changeSummary.extend({
  ruleCounts: z.array(ruleCount),
  byBank: z.array(groupCounts),
});
export type ChangeDetail = z.infer<typeof changeDetail>;

export const approveBody = z.object({
  comment: z.string().trim().max(2000).default(''),
  confirmRemovals: z
    .boolean()
    .default(false)
    .meta({ description: 'Required true when the change is over the removal guard (diff.guard.flagged).' }),
});
export type ApproveBody = z.infer<typeof approveBody>;

export const rejectBody = z.object({
  reason: z.string().trim().min(1, 'a rejection needs a reason').max(2000),
});
export type RejectBody = z.infer<typeof rejectBody>;

const pageNumber = z.coerce.number().int().min(1).max(1_000_000).default(1);
const pageSize = z.coerce.number().int().min(1).max(500).default(50);

export const changesQuery = z.object({
  status: z
    .enum(CHANGE_FILTERS)
    .optional()
    .meta({ description: 'A status, or pending: staged and stale (out of date: re-check) together.' }),
  kind: changeKind.optional(),
  stagedBy: z.string().max(200).optional(),
  pageNumber,
  pageSize,
});
export type ChangesQuery = z.infer<typeof changesQuery>;

export const diffQuery = z.object({
  op: diffOp.optional(),
  country: z.string().max(8).optional(),
  bankCode: z.string().max(64).optional(),
  q: z.string().trim().min(1).max(100).optional().meta({
    description: 'Entries whose code (key, routing number, agent code) or name holds this text, any case.',
  }),
  pageNumber,
  pageSize,
});
export type DiffQuery = z.infer<typeof diffQuery>;

export const problemsQuery = z.object({
  rule: z.string().max(500).optional(),
  column: z.string().max(100).optional(),
  pageNumber,
  pageSize,
});
export type ProblemsQuery = z.infer<typeof problemsQuery>;

export const versionSummary = z.object({
  id: z.number().int(),
  kind: changeKind,
  changeId: z
    .string()
    .nullable()
    .meta({ description: 'Null for the baseline: the data served before the first change.' }),
  stagedBy: z.string().nullable(),
  approvedBy: z.string().nullable(),
  publishedAt: isoTime,
  fileName: z.string(),
  sha256: z.string(),
  rows: z.number().int().meta({ description: 'Rows of the kind served after this version.' }),
  countries: z.array(z.string()),
  diff: diffSummary.nullable(),
  dataVersion: z.string(),
  /** Whether its snapshot is kept (within retention): only then can it be rolled back to. */
  restorable: z.boolean(),
  rollbackOf: z.number().int().nullable().meta({ description: 'The version a rollback restored; null otherwise.' }),
});
export type VersionSummary = z.infer<typeof versionSummary>;

export const versionsQuery = z.object({ kind: changeKind.optional(), pageNumber, pageSize });
export type VersionsQuery = z.infer<typeof versionsQuery>;

export const OPS_ACTIONS = [
  'stage',
  'approve',
  'reject',
  'discard',
  'expire',
  'rollback-staged',
  'publish',
  'restale',
  'publish-interrupted',
  'stage-interrupted',
  'import',
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'account',
  'close-report',
  'recheck',
  'comment',
] as const;
export const opsAction = z
  .string()
  .min(1)
  .max(64)
  .meta({ description: `One of ${OPS_ACTIONS.join(', ')} (or another event an ops route records).` });

export const auditEntry = z.object({
  id: z.number().int(),
  at: isoTime,
  actor: z.string(),
  via: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = z.object({
  action: z.string().max(64).optional(),
  actor: z.string().max(200).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  pageNumber,
  pageSize,
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const opsPage = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    pagination: z.object({
      pageNumber: z.number().int(),
      pageSize: z.number().int(),
      totalItems: z.number().int(),
      totalPages: z.number().int(),
    }),
  });
export interface OpsPage<T> {
  data: T[];
  pagination: { pageNumber: number; pageSize: number; totalItems: number; totalPages: number };
}
