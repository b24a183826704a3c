import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import { lookupHeaders, problem } from '../contract';
import type { Operation } from './routes/v1/operation';
import { OPERATIONS } from './routes/v1';
import { CSRF_HEADER } from '../contract/ops-auth';
import type { OpsOperation } from './routes/v1/ops/ops-operation';
import { OPS_OPERATIONS } from './routes/v1/ops';

// The OpenAPI 3.1 document, generated from the operations (routes/v1) and the contract's zod schemas: nothing
// here re-declares a field or an operation.

const echoedHeaders = {
  'x-correlation-id': {
    description: "The request's correlation id, or a new UUID v4 when it had none.",
    schema: { type: 'string' as const },
  },
  'x-idempotency-key': { description: 'Echoed when the request carried one.', schema: { type: 'string' as const } },
};

const problemResponse = (description: string) => ({
  description,
  headers: echoedHeaders,
  content: { 'application/problem+json': { schema: problem } },
});

function lookup({ summary, description, query, documentQuery, params, response, tag }: Operation): {
  get: ZodOpenApiOperationObject;
} {
  return {
    get: {
      summary,
      description,
      tags: [tag],
      requestParams: {
        header: lookupHeaders,
        ...(documentQuery !== false ? { query: query as never } : {}),
        ...(params ? { path: params as never } : {}),
      },
      responses: {
        200: { description: 'Success', headers: echoedHeaders, content: { 'application/json': { schema: response } } },
        400: problemResponse('Bad Request: every invalid parameter and header is named in `errors`.'),
        401: problemResponse('Unauthorized: API keys are enabled and the key is missing or wrong.'),
        403: problemResponse('Forbidden: the correspondent id is not registered, or not bound to the key.'),
        429: problemResponse("Too Many Requests: the correspondent's rate limit is used up; see Retry-After."),
        500: problemResponse('Server Error (no internal detail is given).'),
        503: problemResponse('Server Error: the store is unavailable; see Retry-After.'),
      },
    },
  };
}

const OPS_ERRORS = {
  400: 'Bad Request: every invalid parameter and body field is named in `errors`.',
  401: 'Unauthorized: no ops session (signed out, expired) and no ops API key.',
  403: "Forbidden: the role is missing, the CSRF token or origin is wrong, a teller's correspondent id or a key without ops roles was sent.",
  429: 'Too Many Requests: see Retry-After.',
  500: 'Server Error (no internal detail is given).',
  503: 'Server Error: the store is unavailable; see Retry-After.',
} as const;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** An ops operation (routes/v1/ops): its method, security (cookie + CSRF header, or a bearer key), body and answers. */
function opsOperation(operation: OpsOperation): ZodOpenApiOperationObject {
  const { method, summary, description, query, params, body, multipart, response, status, produces, errors } =
    operation;
  const success = status ?? (response === null ? 204 : 200);
  const session: Record<string, string[]> = UNSAFE.has(method) ? { opsSession: [], csrfToken: [] } : { opsSession: [] };
  const security: Record<string, string[]>[] =
    operation.access === 'public' ? [{}, session] : [session, { opsKey: [] }];
  const documented: Record<string, unknown> = {};
  for (const [code, text] of Object.entries(OPS_ERRORS)) documented[code] = problemResponse(text);
  for (const error of errors ?? []) documented[error.status] = problemResponse(error.description);
  return {
    summary,
    description: `${description}\n\nWho may call it: ${operation.access === 'public' ? 'anyone' : operation.access === 'signedIn' ? 'any ops account or key' : `the ${operation.access} role`}.`,
    tags: ['Operations desk'],
    security,
    requestParams: {
      ...(query ? { query: query as never } : {}),
      ...(params ? { path: params as never } : {}),
      ...(UNSAFE.has(method) && operation.access !== 'public'
        ? {
            header: z.object({
              [CSRF_HEADER]: z
                .string()
                .optional()
                .meta({ description: 'The session’s CSRF token (GET /v1/ops/session); not with a bearer key.' }),
            }),
          }
        : {}),
    },
    ...(body ? { requestBody: { content: { 'application/json': { schema: body } } } } : {}),
    ...(multipart ? { requestBody: { content: { 'multipart/form-data': { schema: multipart } } } } : {}),
    responses: {
      [success]:
        response === null
          ? { description: 'Done (no content).', headers: echoedHeaders }
          : {
              description: 'Success',
              headers: echoedHeaders,
              content: { [produces ?? 'application/json']: { schema: response } },
            },
      ...documented,
    },
  };
}

/** The ops operations grouped by path: one path item, a method each. */
function opsPaths() {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const operation of OPS_OPERATIONS) {
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = opsOperation(operation);
  }
  return paths;
}

export function buildOpenApiDocument() {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Receiving-Partner Lookup API',
      version: '1.0.0',
      description:
        'Lookups a sending agent uses to find where a beneficiary can be paid: agents, anywhere payout networks and bank branches, with the reference lists they point to. Every operation takes the `x-fapi-financial-id` header.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Lookups' },
      { name: 'Reference' },
      {
        name: 'Operations desk',
        description:
          'Issue #24 (docs/ops-api.md): ops accounts, sign-in, staging partner data changes, review, four-eyes approval, versions, rollback, quality report and audit. Signed in by session cookie (with the CSRF token in x-csrf-token on every POST/PUT/PATCH/DELETE) or an ops API key (Authorization: Bearer); a correspondent id is no ops credential.',
      },
      {
        name: 'Extensions',
        description:
          "Beyond the spec (issue #15; docs/api-extensions.md): find a record from any code, browse bank → state → city. The spec's operations are unchanged.",
      },
    ],
    // Every operation, declared once with its route (routes/v1/index.ts).
    paths: {
      ...Object.fromEntries(OPERATIONS.map((operation) => [operation.path, lookup(operation as Operation)])),
      ...opsPaths(),
    },
    components: {
      securitySchemes: {
        opsSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'rpl-ops-session',
          description:
            'The session cookie set by POST /v1/ops/session (named __Host-rpl-ops-session over TLS). HttpOnly, SameSite=Strict; idle and absolute expiry.',
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER,
          description:
            'The session’s CSRF token (GET /v1/ops/session), required on every state-changing call of a session.',
        },
        opsKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API_KEYS_FILE key with opsRoles (docs/ops-api.md); no cookie, no CSRF token.',
        },
      },
    },
  });
}
