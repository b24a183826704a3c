import { closeReportBody, report, reportPathParams, reportsPage, reportsQuery } from '../../../../contract/reports';
import { deskDbOf } from '../../../desk/db';
import { parseRecordKey, recordKeyOf } from '../../../../contract/record-key';
import { closeReport, listReports, readReport } from '../../../desk/reports';
import { ProblemError } from '../../../problems';
import { defineOpsOperation } from './ops-operation';

// Tellers' reports on the desk (desk/reports.ts): the queue, one record's reports, and closing one with the
// change or version that fixed it (an audit row names who, when and that reference).

export const reportOperations = [
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/reports',
    operationId: 'listReports',
    summary: "Tellers' reports",
    description:
      "The reports tellers sent from their branch and agent views (POST /v1/reports), newest first: open ones by default, or closed, or all; of one kind, or of one record (`kind` and `key` as GET /v1/ops/records answers them). The note is the teller's text as typed.",
    access: 'signedIn',
    query: reportsQuery,
    response: reportsPage,
    async handle({ app, query }) {
      const key = query.key === undefined ? undefined : parseRecordKey(query.key);
      if (key === null)
        throw new ProblemError('invalidRequest', 'Invalid request: query key is not a record key.', [
          { name: 'key', in: 'query', message: 'not a record key (its parts percent-encoded, joined with ~)' },
        ]);
      return listReports(deskDbOf(app.store), { ...query, key: key && recordKeyOf(key) });
    },
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/reports/{id}/close',
    operationId: 'closeReport',
    summary: "Close a teller's report",
    description:
      'Closes an open report with the change (its id) or version that fixed the record, and an optional note; who closed it and when are recorded, with a row in the audit trail (`close-report`).',
    access: 'signedIn',
    params: reportPathParams,
    body: closeReportBody,
    response: report,
    errors: [
      { status: 404, description: 'Not Found: no report has this reference.' },
      { status: 409, description: 'Conflict: the report is closed already.' },
    ],
    async handle({ app, actor, params: { id }, body }) {
      const db = deskDbOf(app.store);
      const closed = await closeReport(db, id, { by: actor.name, fixedBy: body.fixedBy, note: body.note || null });
      if (!closed) {
        const existing = await readReport(db, id);
        if (!existing) throw new ProblemError('notFound', `No report has the reference ${id}.`);
        throw new ProblemError(
          'conflict',
          `Report ${id} was closed already, by ${existing.closedBy} at ${existing.closedAt} (fixed by ${existing.fixedBy}).`,
        );
      }
      await app.desk.recordOpsEvent({
        actor: actor.name,
        via: actor.via,
        action: 'close-report',
        target: id,
        detail: { kind: closed.kind, key: closed.key, fixedBy: closed.fixedBy, note: closed.closeNote },
      });
      return closed;
    },
  }),
];
