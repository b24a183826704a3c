import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import {
  approveBody,
  auditEntry,
  auditQuery,
  changeDetail,
  changeKind,
  changeSummary,
  changesQuery,
  diffEntry,
  diffQuery,
  opsPage,
  problemsQuery,
  rejectBody,
  validationProblem,
  versionSummary,
  versionsQuery,
} from '../../../../contract/ops-changes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toCsvCell } from '../../../../contract/csv-cell';
import { detectedLayout, fileReading, type FileReading } from '../../../../contract/ops-files';
import { detectFileLayout } from '../../../importer/layouts';
import { ProblemError } from '../../../problems';
import { sendAttachment } from '../../../desk/version-files';
import type { ChangeDesk } from '../../../desk/desk';
import { CHANGE_404, changeId, defineOpsOperation, readChange } from './ops-operation';
import { checkScope, isEditsRequest, parseScopeField, stageEdits } from './edits';
import { editsBody, type ChangeScope } from '../../../../contract/ops-edits';
import { answerStale } from './change-flow';
import { approveConflict } from '../../../../contract/ops-flow';
import { versionIdParams } from '../../../../contract/ops-versions';

// The desk's changes over HTTP: upload (streamed to a file, SHA-256 computed on the way, size-limited) and
// stage, inbox, report, difference, four-eyes decisions, versions, rollback and the audit trail. The engine
// (app.desk, desk/engine.ts) checks roles and four eyes itself too; its errors carry their status.

/** The multipart upload of a change or of a file to detect: `kind`, optionally `reading`, then `file`. */
async function receiveUpload(app: FastifyInstance, request: FastifyRequest, maxBytes = app.opsUploads.maxBytes) {
  if (!request.isMultipart()) {
    throw new ProblemError('unsupportedMediaType', 'Send the file as multipart/form-data (fields kind, then file).');
  }
  mkdirSync(app.opsUploads.dir, { recursive: true });
  let kind: z.infer<typeof changeKind> | undefined;
  let reading: FileReading | undefined;
  let scope: ChangeScope | undefined;
  let stored: { path: string; fileName: string; sha256: string } | undefined;
  const tooLarge = () =>
    new ProblemError('payloadTooLarge', `The file is larger than ${maxBytes} bytes (OPS_UPLOAD_MAX_BYTES).`);
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
      if (part.type === 'field') {
        if (part.fieldname === 'kind') {
          const parsed = changeKind.safeParse(part.value);
          if (!parsed.success) {
            throw new ProblemError('invalidRequest', 'kind must be branches, partners or agents.', [
              { name: 'kind', in: 'body', message: 'must be branches, partners or agents' },
            ]);
          }
          kind = parsed.data;
        } else if (part.fieldname === 'reading') {
          reading = parseReading(part.value);
        } else if (part.fieldname === 'scope') {
          scope = parseScopeField(part.value);
        }
        continue;
      }
      if (!kind) {
        part.file.resume();
        throw new ProblemError('invalidRequest', 'Send the kind field before the file.', [
          { name: 'kind', in: 'body', message: 'is missing (it must come before the file)' },
        ]);
      }
      const path = join(app.opsUploads.dir, `${randomUUID()}.upload`);
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      stored = { path, fileName: part.filename || 'upload', sha256: '' };
      await pipeline(part.file, hashing, createWriteStream(path));
      if (part.file.truncated) throw tooLarge();
      stored.sha256 = hash.digest('hex');
    }
  } catch (error) {
    if (stored) await rm(stored.path, { force: true });
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (isMalformedMultipart(error)) {
      // The client's mistake, not the server's: no error-level log.
      request.log.info({ err: error }, 'malformed multipart upload refused');
      throw new ProblemError(
        'invalidRequest',
        'The multipart/form-data body cannot be read: send the boundary parameter in Content-Type and the fields kind, then file, each opened by that boundary, the body closed by it.',
        [{ name: 'multipart', in: 'body', message: error.message }],
      );
    }
    throw error;
  }
  if (!kind || !stored) {
    throw new ProblemError('invalidRequest', 'Send the fields kind and file.', [
      { name: kind ? 'file' : 'kind', in: 'body', message: 'is missing' },
    ]);
  }
  checkScope(kind, scope);
  return { kind, reading, scope, stored };
}

/**
 * Whether an error of the upload loop is the multipart parser's (busboy: no boundary parameter, no boundary in
 * the body, a body that ends mid-part): a plain Error without a status. The plugin's own errors carry a status
 * (the error handler answers them), ours are ProblemErrors, a failing disk write is a system error (syscall) and
 * a bug a TypeError or the like: those stay the server's.
 */
function isMalformedMultipart(error: unknown): error is Error {
  return (
    error instanceof Error &&
    Object.getPrototypeOf(error) === Error.prototype &&
    (error as { statusCode?: number }).statusCode === undefined &&
    (error as { syscall?: string }).syscall === undefined
  );
}

/** The `reading` field: JSON of a FileReading, checked by the contract (a 400 naming what is wrong). */
function parseReading(value: unknown): FileReading {
  let json: unknown;
  try {
    json = JSON.parse(String(value));
  } catch {
    throw new ProblemError('invalidRequest', 'reading must be JSON: { "layout": …, "mapping": { … } }.', [
      { name: 'reading', in: 'body', message: 'is not JSON' },
    ]);
  }
  const parsed = fileReading.safeParse(json);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      name: ['reading', ...issue.path].join('.'),
      in: 'body' as const,
      message: issue.message,
    }));
    throw new ProblemError(
      'invalidRequest',
      `Invalid request: ${errors.map((e) => `${e.name} ${e.message}`).join('; ')}.`,
      errors,
    );
  }
  return parsed.data;
}

/** A signed-in, paged read of the desk (the inbox, the versions, the audit trail): its query, its item and the read. */
const deskPage = <Q extends z.ZodType>(
  query: Q,
  item: z.ZodType,
  read: (desk: ChangeDesk, query: z.output<Q>) => Promise<unknown>,
) => ({
  method: 'GET' as const,
  access: 'signedIn' as const,
  query,
  response: opsPage(item),
  handle: async ({ app, query }: { app: FastifyInstance; query: z.output<Q> }) => read(app.desk, query),
});

export const changeOperations = [
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/changes',
    operationId: 'stageChange',
    summary: 'Upload and stage a change (maker)',
    description:
      'multipart/form-data: the field `kind` (branches, partners, agents) first, optionally `reading` (JSON: the layout, and a column mapping for a header the desk does not know; see POST /v1/ops/files/detect), then the `file` (CSV or XLSX in the import format, or the public IFSC list of India). The file is streamed to disk (over OPS_UPLOAD_MAX_BYTES: 413) with its SHA-256 computed on the way, then validated and diffed in the background: 202 with the change; poll GET /v1/ops/changes/{id} for its progress. The optional `scope` (JSON) limits what the change may add, change or remove. Or application/json `{kind, edits}`: records added, changed or removed without a file (keys as GET /v1/ops/records answers them), staged as a change with the scope upsert; answered once staged (202), a key not served or a field not of the kind a 400 naming it.',
    access: 'maker',
    multipart: z.object({
      kind: changeKind,
      reading: z.string().optional().meta({ description: 'JSON of a FileReading: { layout, mapping?, country? }' }),
      scope: z.string().optional().meta({
        description:
          'JSON of a ChangeScope: {"country":"IN"}, {"country":"IN","bankCode":"ABHY"} (one bank of one country) or {"mode":"upsert"}. Absent: the whole kind (a branch file: its countries).',
      }),
      file: z.string().meta({ format: 'binary' }),
    }),
    jsonBody: editsBody,
    response: changeDetail,
    status: 202,
    errors: [
      { status: 413, description: 'Payload too large: the file is over OPS_UPLOAD_MAX_BYTES.' },
      { status: 415, description: 'Unsupported media type: not multipart/form-data.' },
    ],
    async handle({ app, request, actor }) {
      if (isEditsRequest(request)) return stageEdits(app, request, actor);
      const { kind, reading, scope, stored } = await receiveUpload(app, request);
      const started = await app.desk.startStaging(
        actor,
        { kind, reading, scope, ...stored },
        { maxUnpackedBytes: app.opsUploads.maxUnpackedBytes },
      );
      // The engine keeps its own copy: the upload goes once staging is done.
      void started.done.finally(() => rm(stored.path, { force: true }));
      return app.desk.get(started.id);
    },
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/files/detect',
    operationId: 'detectFileReading',
    summary: 'What layout a file has, and a suggested column mapping (maker)',
    description:
      "multipart/form-data: `kind`, then the `file` (its first rows are enough; an XLSX whole). Answers the layout the header says (import, ifsc-public, or mapped: a header the desk does not know), the header, a mapping of its headings to the kind's fields and the first rows, for the mapping screen. Nothing is staged.",
    access: 'maker',
    multipart: z.object({ kind: changeKind, file: z.string().meta({ format: 'binary' }) }),
    response: detectedLayout,
    errors: [
      { status: 413, description: 'Payload too large: the file is over OPS_UPLOAD_MAX_BYTES.' },
      { status: 415, description: 'Unsupported media type: not multipart/form-data.' },
      { status: 422, description: 'Unprocessable: the file cannot be read (empty, an XLSX refused).' },
    ],
    async handle({ app, request }) {
      const { kind, stored } = await receiveUpload(app, request);
      try {
        const detected = await detectFileLayout(stored.path, kind, {
          fileName: stored.fileName,
          maxUnpackedBytes: app.opsUploads.maxUnpackedBytes,
        });
        if (!('layout' in detected))
          throw new ProblemError('unprocessable', `The file cannot be read: ${detected.reason}.`);
        return detected;
      } finally {
        await rm(stored.path, { force: true });
      }
    },
  }),
  defineOpsOperation({
    ...deskPage(changesQuery, changeSummary, (desk, query) => desk.list(query)),
    path: '/v1/ops/changes',
    operationId: 'listChanges',
    summary: 'The inbox: staged and past changes',
    description: 'Paged, newest first; filters by status, kind and maker.',
  }),
  defineOpsOperation({
    ...readChange,
    path: '/v1/ops/changes/{id}',
    operationId: 'getChange',
    summary: 'A change: status, progress, counts per rule, difference summary',
    description: 'Poll it while the change validates (`progress`).',
    response: changeDetail,
    async handle({ app, params }) {
      return app.desk.get(params.id);
    },
  }),
  defineOpsOperation({
    ...readChange,
    path: '/v1/ops/changes/{id}/problems',
    operationId: 'listChangeProblems',
    summary: 'The validation report: every fault of every row, with the value that failed',
    description: 'Paged, in file order; filter by rule or column.',
    query: problemsQuery,
    response: opsPage(validationProblem),
    async handle({ app, params, query }) {
      return app.desk.problems(params.id, query);
    },
  }),
  defineOpsOperation({
    ...readChange,
    path: '/v1/ops/changes/{id}/problems.csv',
    operationId: 'downloadChangeProblems',
    summary: 'The validation report as CSV',
    description: 'Every problem (row, column, value, rule, message), for a spreadsheet.',
    response: z.string(),
    produces: 'text/csv',
    async handle({ app, reply, params }) {
      await app.desk.get(params.id);
      const rows: string[] = [stringify([['row', 'column', 'value', 'rule', 'message']])];
      for await (const p of app.desk.allProblems(params.id)) {
        // The project's one formula escape (contract/csv-cell.ts), as every CSV it writes.
        const safe = (v: string | null) => toCsvCell(v ?? '');
        rows.push(stringify([[p.row ?? '', p.column ?? '', safe(p.value), p.rule, safe(p.message)]]));
      }
      return sendAttachment(reply, `change-${params.id}-problems.csv`, rows.join(''));
    },
  }),
  defineOpsOperation({
    ...readChange,
    path: '/v1/ops/changes/{id}/diff',
    operationId: 'getChangeDiff',
    summary: 'The difference against the published data',
    description:
      'Added, removed and changed records by natural key, field by field (added and removed: every field); a code change is one changed entry with previousKey; each with its record page key; paged; filters op, country, bankCode, and q (code or name). With bad rows in the file: the difference of its valid rows.',
    query: diffQuery,
    response: opsPage(diffEntry),
    async handle({ app, params, query }) {
      return app.desk.diff(params.id, query);
    },
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/changes/{id}/approve',
    operationId: 'approveChange',
    summary: 'Approve and publish (checker; never the change’s maker)',
    description:
      'Publishes atomically. 403 for the change’s maker whatever their roles or identity (an account and the keys issued to its holder are one person), and for a checker the maker created, set the password of or made a checker; 409 when the published data changed since the diff (the change is re-diffed: review and approve again); 422 when over the removal guard without confirmRemovals: true.',
    access: 'checker',
    params: changeId,
    body: approveBody,
    response: changeSummary,
    errors: [
      CHANGE_404,
      {
        status: 409,
        description:
          'Conflict: not in a state to approve; or another change was published since this one was diffed: problem type urn:problem:stale-change, the change re-diffed (`change`) and its new counts (`counts`).',
        schema: approveConflict,
      },
      { status: 422, description: 'Unprocessable: over the removal guard without confirmRemovals.' },
    ],
    async handle({ app, actor, params, body, request, reply }) {
      // A 409 of a re-diff names what happened, with the new difference (change-flow.ts).
      return app.desk.approve(actor, params.id, body).catch((error: unknown) => answerStale(error, request, reply));
    },
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/changes/{id}/reject',
    operationId: 'rejectChange',
    summary: 'Reject (checker), with a reason',
    description: 'Closes the change without publishing it.',
    access: 'checker',
    params: changeId,
    body: rejectBody,
    response: changeSummary,
    errors: [CHANGE_404, { status: 409, description: 'Conflict: not in a state to reject.' }],
    async handle({ app, actor, params, body }) {
      return app.desk.reject(actor, params.id, body);
    },
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/changes/{id}/discard',
    operationId: 'discardChange',
    summary: 'Discard a staged change (its maker)',
    description: 'The maker closes their own staged change.',
    access: 'signedIn',
    params: changeId,
    response: changeSummary,
    errors: [CHANGE_404, { status: 409, description: 'Conflict: not in a state to discard.' }],
    async handle({ app, actor, params }) {
      return app.desk.discard(actor, params.id);
    },
  }),
  defineOpsOperation({
    ...deskPage(versionsQuery, versionSummary, (desk, query) => desk.versions(query)),
    path: '/v1/ops/versions',
    operationId: 'listVersions',
    summary: 'Published versions (history)',
    description:
      'Who staged and approved each, when, file and SHA-256, rows, diff summary; whether it can be restored.',
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/versions/{id}/rollback',
    operationId: 'rollBackToVersion',
    summary: 'Roll back to a version (checker): stages a change',
    description: 'The rollback is a change like any other: staged, diffed, approved by another checker.',
    access: 'checker',
    params: versionIdParams,
    response: changeDetail,
    status: 202,
    errors: [{ status: 404, description: 'Not found: no such version, or its snapshot is no longer kept.' }],
    async handle({ app, actor, params }) {
      // 202 at once: the snapshot is validated and diffed in the background, as an upload is (poll the change).
      const started = await app.desk.startRollback(actor, params.id);
      return app.desk.get(started.id);
    },
  }),
  defineOpsOperation({
    ...deskPage(auditQuery, auditEntry, (desk, query) => desk.audit(query)),
    path: '/v1/ops/audit',
    operationId: 'listAuditEvents',
    summary: 'The ops audit trail',
    description:
      'Every ops action (sign-in, failed sign-in, stage, approve, reject, rollback, account change); paged, filterable.',
  }),
];
