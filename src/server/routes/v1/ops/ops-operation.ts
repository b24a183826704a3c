import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { OpsRole } from '../../../../contract/ops-auth';
import type { ProblemParameter } from '../../../../contract';
import { ProblemError, type ProblemKind } from '../../../problems';
import { DeskError } from '../../../desk/desk';
import type { OpsActor } from '../../../plugins/app/ops-auth';

// One declaration per operation of the operations desk (/v1/ops/…), as defineOperation is for the lookups:
// method, path, who may call it, its query, path and body schemas, its answer and its handler. The Fastify
// route (opsRoutes, below) and the OpenAPI entry (openapi.ts) are both made from it; the tests read the list
// (OPS_OPERATIONS, ./index.ts). The lookups' declarations are untouched: these differ in method, body and
// security.

export type OpsMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** public: anyone (sign-in); signedIn: any ops account or key; a role: an actor holding it. */
export type OpsAccess = 'public' | 'signedIn' | OpsRole;

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface OpsContext<Q extends Schema, P extends Schema, B extends Schema, A extends OpsAccess> {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The account or key acting; null only on a public operation. */
  actor: A extends 'public' ? OpsActor | null : OpsActor;
  query: Out<Q>;
  params: Out<P>;
  body: Out<B>;
}

export interface OpsOperation<
  Path extends string = string,
  Q extends Schema = Schema,
  P extends Schema = Schema,
  B extends Schema = Schema,
  A extends OpsAccess = OpsAccess,
> {
  method: OpsMethod;
  /** The path as the OpenAPI document writes it, parameters in braces: `/v1/ops/changes/{id}`. */
  path: Path;
  /** The OpenAPI operationId: the method name a generated client gives the operation; unique in the document. */
  operationId: string;
  summary: string;
  description: string;
  access: A;
  query?: Q;
  params?: P;
  /** A JSON body (checked here: one 400 naming every bad field). */
  body?: B;
  /** A multipart/form-data body the handler streams itself (uploads); its fields, for the document. */
  multipart?: z.ZodObject;
  /** Beside `multipart`: a JSON body the handler checks itself (the same path, another media type). */
  jsonBody?: z.ZodType;
  /** The answer's schema; null: 204 without a body. */
  response: z.ZodType | null;
  /** The success status (200 unless said). */
  status?: 200 | 201 | 202 | 204;
  /** The answer's media type when not JSON (a CSV download), or the types a file download may have. */
  produces?: 'text/csv' | readonly string[];
  /** Statuses besides 400/401/403/429/500/503 this operation answers (documented). */
  errors?: { status: 404 | 409 | 413 | 415 | 422; description: string; schema?: z.ZodType }[];
  /** The route's Fastify config (csrfExempt for the sign-in). */
  config?: Record<string, unknown>;
  handle(context: OpsContext<Q, P, B, A>): Promise<unknown>;
}

/** Declares an ops operation; the literal path is kept in its type. */
export const defineOpsOperation = <
  const Path extends `/v1/ops/${string}`,
  A extends OpsAccess,
  Q extends Schema = undefined,
  P extends Schema = undefined,
  B extends Schema = undefined,
>(
  operation: OpsOperation<Path, Q, P, B, A>,
) => operation as unknown as OpsOperation;

/** The Fastify route under the `/v1/ops` prefix: `/v1/ops/changes/{id}` → `/changes/:id`. */
const routeUrl = (path: string) => path.replace(/^\/v1\/ops/, '').replace(/\{(\w+)\}/g, ':$1') || '/';

/** Query, path and body checked together: one 400 names every bad parameter and field. */
function parseRequest(request: FastifyRequest, operation: OpsOperation) {
  const errors: ProblemParameter[] = [];
  const take = (schema: Schema, value: unknown, where: ProblemParameter['in']) => {
    if (!schema) return undefined;
    const parsed = schema.safeParse(value ?? {});
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      errors.push({ name: issue.path.length > 0 ? issue.path.join('.') : where, in: where, message: issue.message });
    }
    return undefined;
  };
  const query = take(operation.query, request.query, 'query');
  const params = take(operation.params, request.params, 'path');
  const body = take(operation.body, request.body, 'body');
  if (errors.length > 0) {
    throw new ProblemError(
      'invalidRequest',
      `Invalid request: ${errors.map((e) => `${e.in} ${e.name} ${e.message}`).join('; ')}.`,
      errors,
    );
  }
  return { query, params, body };
}

const DESK_STATUS_KINDS: Record<number, ProblemKind> = {
  400: 'invalidRequest',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  413: 'payloadTooLarge',
  422: 'unprocessable',
};

/** A plugin (registered under the `/v1/ops` prefix, after ops-auth) that routes every ops operation. */
export function opsRoutes(operations: readonly OpsOperation[]) {
  return async function routes(app: FastifyInstance) {
    for (const operation of operations) {
      app.route({
        method: operation.method,
        url: routeUrl(operation.path),
        config: operation.config ?? {},
        handler: async (request, reply) => {
          const actor =
            operation.access === 'public'
              ? request.opsActor
              : app.opsAuth.require(request, operation.access === 'signedIn' ? undefined : operation.access);
          const { query, params, body } = parseRequest(request, operation);
          let answer: unknown;
          try {
            answer = await operation.handle({ app, request, reply, actor: actor as OpsActor, query, params, body });
          } catch (error) {
            // The engine's errors carry their status (desk.ts): the same problem shape as everything else.
            if (error instanceof DeskError)
              throw new ProblemError(DESK_STATUS_KINDS[error.status] ?? 'invalidRequest', error.message);
            throw error;
          }
          // A handler that answered itself (a streamed CSV) hands back the reply.
          if (answer === reply || reply.sent) return reply;
          if (operation.response === null) return reply.code(204).send();
          if (operation.status) reply.code(operation.status);
          return answer;
        },
      });
    }
  };
}

/** One change's path parameter and its 404; what a signed-in read of a change declares. */
export const changeId = z.strictObject({ id: z.string().min(1).max(64) });
export const CHANGE_404 = { status: 404 as const, description: 'Not found: no such change.' };
export const readChange = {
  method: 'GET' as const,
  access: 'signedIn' as const,
  params: changeId,
  errors: [CHANGE_404],
};
