import { z } from 'zod';
import { changeKind, opsPage } from './ops-changes';
import { recordKey } from './ops-records';

// A teller's report of a problem with a served record ("this routing number is wrong"), sent from the teller's
// branch and agent views with the teller's correspondent id (POST /v1/reports), queued on the operations desk
// (GET /v1/ops/reports) and closed there with a reference to the change or version that fixed it
// (POST /v1/ops/reports/{id}/close). The note is plain text: stored and answered as it was typed, never read as
// markup (the portal renders it as text; a CSV of it passes through toCsvCell).

export const REPORT_REASONS = ['wrong-routing-number', 'wrong-address', 'wrong-name', 'closed', 'other'] as const;
export const reportReason = z.enum(REPORT_REASONS).meta({
  description:
    'wrong-routing-number: the code (routing number, IFSC, agent code) is wrong; wrong-address; wrong-name; closed: the branch or agent no longer pays out; other.',
});
export type ReportReason = z.infer<typeof reportReason>;

export const REPORT_NOTE_MAX = 500;

export const reportBody = z.strictObject({
  kind: changeKind,
  key: recordKey,
  reason: reportReason,
  note: z
    .string()
    .trim()
    .min(1, 'is required: say what is wrong')
    .max(REPORT_NOTE_MAX, `is at most ${REPORT_NOTE_MAX} characters`)
    .meta({ description: 'What is wrong, as the teller typed it (plain text, 1–500 characters).' }),
});
export type ReportBody = z.infer<typeof reportBody>;

/** A report's id, its reference for the teller and the desk: `R-` and eight letters or digits. */
export const REPORT_ID_PATTERN = /^R-[0-9A-Z]{8}$/;
export const reportId = z
  .string()
  .regex(REPORT_ID_PATTERN, 'is a report reference: R- and eight upper-case letters or digits')
  .meta({ example: 'R-7K3F9Q2M' });

const isoTime = z.string().meta({ description: 'ISO 8601 time (UTC).' });

export const REPORT_STATUSES = ['open', 'closed'] as const;

export const report = z.object({
  id: reportId,
  kind: changeKind,
  key: recordKey,
  reason: reportReason,
  note: z.string(),
  correspondentId: z.string().meta({ description: 'The x-fapi-financial-id the report was sent with.' }),
  createdAt: isoTime,
  status: z.enum(REPORT_STATUSES),
  closedAt: isoTime.nullable(),
  closedBy: z.string().nullable(),
  /** The change or version that fixed it, as the analyst gave it. */
  fixedBy: z.string().nullable(),
  closeNote: z.string().nullable(),
});
export type Report = z.infer<typeof report>;

/** What the teller is answered: the report's reference and what was stored. */
export const reportReceipt = report.pick({
  id: true,
  kind: true,
  key: true,
  reason: true,
  note: true,
  createdAt: true,
});
export type ReportReceipt = z.infer<typeof reportReceipt>;

export const reportsQuery = z.strictObject({
  status: z
    .enum([...REPORT_STATUSES, 'all'])
    .default('open')
    .meta({ description: 'open (default), closed or all.' }),
  kind: changeKind.optional(),
  key: recordKey.optional().meta({ description: "One record's reports (with kind)." }),
  pageNumber: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ReportsQuery = z.infer<typeof reportsQuery>;

export const reportsPage = opsPage(report);
export type ReportsPage = z.infer<typeof reportsPage>;

export const reportPathParams = z.strictObject({ id: reportId });

export const closeReportBody = z.strictObject({
  fixedBy: z
    .string()
    .trim()
    .min(1, 'is required: the change id or version that fixed it')
    .max(200)
    .meta({ description: 'The change (its id) or version that fixed the record, or why nothing was changed.' }),
  note: z.string().trim().max(REPORT_NOTE_MAX).optional(),
});
export type CloseReportBody = z.infer<typeof closeReportBody>;
