import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ProblemParameter } from '../../../../contract';
import type { ChangeKind } from '../../../../contract/ops-changes';
import { changeScope, editsBody } from '../../../../contract/ops-edits';
import type { OpsActor } from '../../../desk/desk';
import { EditError, editsFile } from '../../../desk/edits';
import { scopeProblem, type StoredScope } from '../../../desk/scope';
import { ProblemError } from '../../../problems';

// A change's scope as the upload sends it (the multipart field `scope`), and a change without a file
// (POST /v1/ops/changes with a JSON body: desk/edits.ts), staged through the same desk as an upload.

const invalid = (issues: ProblemParameter[]) =>
  new ProblemError(
    'invalidRequest',
    `Invalid request: ${issues.map((e) => `${e.name} ${e.message}`).join('; ')}.`,
    issues,
  );

/** The contract's check of a JSON value: its issues named under `name`. */
function parsed<S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(
    result.error.issues.map((issue) => ({
      name: [name, ...issue.path].join('.'),
      in: 'body' as const,
      message: issue.message,
    })),
  );
}

/** The `scope` field: JSON of a ChangeScope ({"country":"IN","bankCode":"ABHY"}, {"mode":"upsert"}). */
export function parseScopeField(value: unknown): z.infer<typeof changeScope> {
  let json: unknown;
  try {
    json = JSON.parse(String(value));
  } catch {
    throw invalid([
      {
        name: 'scope',
        in: 'body',
        message: 'is not JSON: send {"country":"IN"}, {"country":"IN","bankCode":"ABHY"} or {"mode":"upsert"}',
      },
    ]);
  }
  return parsed(changeScope, json, 'scope');
}

/** A scope that cannot apply to the kind (a bank scope of partners): a 400. */
export function checkScope(kind: ChangeKind, scope: StoredScope | undefined): void {
  const problem = scope && scopeProblem(kind, scope);
  if (problem) throw invalid([{ name: 'scope', in: 'body', message: problem }]);
}

/** Whether a request to POST /v1/ops/changes is a change without a file (a JSON body). */
export const isEditsRequest = (request: FastifyRequest) =>
  !request.isMultipart() && /^application\/json\b/i.test(request.headers['content-type'] ?? '');

/**
 * Stages the JSON body's edits as a change (the file desk/edits.ts makes, scope upsert) and answers it once
 * staged (a few records validate at once): its summary, with its problems counted as an upload's.
 */
export async function stageEdits(app: FastifyInstance, request: FastifyRequest, actor: OpsActor) {
  const body = parsed(editsBody, request.body ?? {}, 'body');
  const { dataSet } = await app.store.readDataSet();
  let file;
  try {
    file = editsFile(body.kind, body.edits, dataSet);
  } catch (error) {
    if (error instanceof EditError) throw invalid([{ name: error.field, in: 'body', message: error.message }]);
    throw error;
  }
  mkdirSync(app.opsUploads.dir, { recursive: true });
  const path = join(app.opsUploads.dir, `${randomUUID()}.upload`);
  writeFileSync(path, file.bytes);
  try {
    const started = await app.desk.startStaging(actor, {
      kind: body.kind,
      path,
      fileName: file.fileName,
      scope: file.scope,
    });
    await started.done;
    return await app.desk.get(started.id);
  } finally {
    await rm(path, { force: true });
  }
}
