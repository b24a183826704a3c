import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiHeaderObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { UUID_SHAPED_PATTERN, aliveResponse, lookupHeaders, problem, readyResponse } from '../contract';
import type { Operation } from './routes/v1/operation';
import { OPERATIONS } from './routes/v1';
import { CSRF_HEADER } from '../contract/ops-auth';
import type { OpsOperation } from './routes/v1/ops/ops-operation';
import { OPS_OPERATIONS } from './routes/v1/ops';
import { DEFAULT_LIMITS } from './plugins/app/limits';
import { REPORT_OPERATION } from './routes/v1/reports';

// The OpenAPI 3.1 document, generated from the operations (routes/v1, routes/v1/ops) and the contract's zod
// schemas: nothing here re-declares a field or an operation. What applies to many answers (the headers every
// answer carries, the statuses every operation can answer) is declared once here and applied to each operation.

/** The API's own response headers, each declared once (components.headers) and referred to by the answers. */
const HEADERS = {
  CorrelationId: {
    description:
      "The request's correlation id (x-correlation-id), or a new UUID v4 when it had none or not a UUID-shaped one.",
    required: true,
    schema: { type: 'string', pattern: UUID_SHAPED_PATTERN.source },
  },
  IdempotencyKey: {
    description: 'The x-idempotency-key of the request, echoed when it carried a UUID-shaped one.',
    schema: { type: 'string', pattern: UUID_SHAPED_PATTERN.source },
  },
  DataVersion: {
    description:
      'The data version the whole answer came from: the served data set, which moves with every import or published change.',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  ETag: {
    description: 'The data version of the reference lists; send it back in If-None-Match to get a 304 while it holds.',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  WwwAuthenticate: {
    description: 'The Bearer challenge, when a key is what is missing or wrong.',
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description: "The caller's lookups per window, when rate limiting is on (RATE_LIMIT_MAX).",
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: {
    description: "What is left of the caller's budget in this window, when rate limiting is on.",
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: "Seconds until the caller's window starts again, when rate limiting is on.",
    schema: { type: 'integer', minimum: 0 },
  },
} satisfies Record<string, ZodOpenApiHeaderObject>;
type HeaderName = keyof typeof HEADERS;

/** The names the headers are sent under. */
const HEADER_NAMES: Record<HeaderName, string> = {
  CorrelationId: 'x-correlation-id',
  IdempotencyKey: 'x-idempotency-key',
  DataVersion: 'x-data-version',
  ETag: 'ETag',
  RetryAfter: 'Retry-After',
  WwwAuthenticate: 'WWW-Authenticate',
  RateLimitLimit: 'x-ratelimit-limit',
  RateLimitRemaining: 'x-ratelimit-remaining',
  RateLimitReset: 'x-ratelimit-reset',
};

type Responses = Record<string, ZodOpenApiResponseObject>;

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const problemResponse = (description: string, schema: z.ZodType = problem): ZodOpenApiResponseObject => ({
  description,
  content: { 'application/problem+json': { schema } },
});

/** What every operation can answer, whatever it does: the request target is checked before any route. */
const EVERY_OPERATION: Responses = {
  400: problemResponse('Bad Request: a malformed request (a bad %-escape, no Host header).'),
  414: problemResponse(
    `URI Too Long: the request target is over MAX_URL_LENGTH (${DEFAULT_LIMITS.maxUrlLength} bytes by default).`,
  ),
  500: problemResponse('Server Error (no internal detail is given).'),
};

interface HeaderRules {
  /** The operation is under the rate limit (/v1 but the document): x-ratelimit-* on every answer. */
  rateLimited: boolean;
  /** Headers of particular answers of this operation, by status. */
  byStatus?: Record<string, HeaderName[]>;
}

/**
 * Puts the headers on each answer: x-correlation-id and x-idempotency-key on all, Retry-After on 429 and 503,
 * WWW-Authenticate on 401, x-ratelimit-* where the rate limit counts, and the operation's own.
 */
function withHeaders(responses: Responses, { rateLimited, byStatus = {} }: HeaderRules): Responses {
  const answered: Responses = {};
  for (const [status, response] of Object.entries(responses)) {
    const names: HeaderName[] = ['CorrelationId', 'IdempotencyKey'];
    if (rateLimited) names.push('RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset');
    if (status === '429' || status === '503') names.push('RetryAfter');
    if (status === '401') names.push('WwwAuthenticate');
    names.push(...(byStatus[status] ?? []));
    answered[status] = {
      ...response,
      headers: Object.fromEntries(names.map((name) => [HEADER_NAMES[name], { $ref: `#/components/headers/${name}` }])),
    };
  }
  return answered;
}

/** If-None-Match, for the reference lists that answer 304. */
const conditionalHeaders = lookupHeaders.extend({
  'if-none-match': z
    .string()
    .optional()
    .meta({ description: 'The ETag of an earlier answer: a 304 without a body while the data has not changed.' }),
});

function lookup(operation: Operation): { get: ZodOpenApiOperationObject } {
  const { operationId, summary, description, query, documentQuery, params, response, tag, etag, dataVersion } =
    operation;
  const responses: Responses = {
    ...EVERY_OPERATION,
    200: { description: 'Success', content: json(response) },
    ...(etag ? { 304: { description: 'Not Modified: If-None-Match named the current ETag.' } } : {}),
    400: problemResponse('Bad Request: every invalid parameter and header is named in `errors`.'),
    401: problemResponse('Unauthorized: API keys are enabled and the key is missing or wrong.'),
    403: problemResponse('Forbidden: the correspondent id is not registered, or not bound to the key.'),
    429: problemResponse("Too Many Requests: the correspondent's rate limit is used up; see Retry-After."),
    503: problemResponse(
      'Server Error: the store is unavailable, or the first search index is being built; see Retry-After.',
    ),
  };
  for (const error of operation.errors ?? []) responses[error.status] = problemResponse(error.description);
  const own: HeaderName[] = [...(dataVersion ? ['DataVersion' as const] : []), ...(etag ? ['ETag' as const] : [])];
  return {
    get: {
      operationId,
      summary,
      description,
      tags: [tag],
      // The key is asked for only when the service runs with API keys (API_KEYS_FILE).
      security: [{}, { tellerKey: [] }],
      requestParams: {
        header: etag ? conditionalHeaders : lookupHeaders,
        ...(documentQuery !== false ? { query: query as never } : {}),
        ...(params ? { path: params as never } : {}),
      },
      responses: withHeaders(responses, {
        rateLimited: true,
        byStatus: {
          200: own,
          ...(etag ? { 304: ['ETag' as const] } : {}),
          // The by-id lookups name the data version they found nothing in.
          ...(dataVersion
            ? Object.fromEntries((operation.errors ?? []).map((e) => [e.status, ['DataVersion' as const]]))
            : {}),
        },
      }),
    },
  };
}

const OPS_ERRORS = {
  400: 'Bad Request: every invalid parameter and body field is named in `errors`.',
  401: 'Unauthorized: no ops session (signed out, expired) and no ops API key.',
  403: "Forbidden: the role is missing, the CSRF token or origin is wrong, a teller's correspondent id or a key without ops roles was sent.",
  429: 'Too Many Requests: see Retry-After.',
  503: 'Server Error: the store is unavailable; see Retry-After.',
} as const;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** An ops operation (routes/v1/ops): its method, security (cookie + CSRF header, or a bearer key), body and answers. */
function opsOperation(operation: OpsOperation): ZodOpenApiOperationObject {
  const { method, operationId, summary, description, query, params, body, multipart, response, status, produces } =
    operation;
  const success = status ?? (response === null ? 204 : 200);
  const session: Record<string, string[]> = UNSAFE.has(method) ? { opsSession: [], csrfToken: [] } : { opsSession: [] };
  const security: Record<string, string[]>[] =
    operation.access === 'public' ? [{}, session] : [session, { opsKey: [] }];
  const responses: Responses = { ...EVERY_OPERATION };
  for (const [code, text] of Object.entries(OPS_ERRORS)) responses[code] = problemResponse(text);
  for (const error of operation.errors ?? [])
    responses[error.status] = problemResponse(error.description, error.schema);
  responses[success] =
    response === null
      ? { description: 'Done (no content).' }
      : {
          description: 'Success',
          content: Object.fromEntries(
            [produces ?? 'application/json'].flat().map((type) => [type, { schema: response }]),
          ),
        };
  return {
    operationId,
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
    ...(multipart
      ? {
          requestBody: {
            content: {
              'multipart/form-data': { schema: multipart },
              ...(operation.jsonBody ? { 'application/json': { schema: operation.jsonBody } } : {}),
            },
          },
        }
      : {}),
    responses: withHeaders(responses, { rateLimited: true }),
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

/** A teller's report (routes/v1/reports.ts): a POST with the lookups' headers, access check and rate limit. */
function tellerReportPath() {
  const { path, operationId, summary, description, body, response } = REPORT_OPERATION;
  const responses: Responses = {
    ...EVERY_OPERATION,
    201: { description: 'Stored: the report with its reference (`id`).', content: json(response) },
    400: problemResponse(
      'Bad Request: every invalid header and body field (a record not served) is named in `errors`.',
    ),
    401: problemResponse('Unauthorized: API keys are enabled and the key is missing or wrong.'),
    403: problemResponse('Forbidden: the correspondent id is not registered, or not bound to the key.'),
    429: problemResponse("Too Many Requests: the correspondent's reports (or lookups) are used up; see Retry-After."),
    503: problemResponse('Server Error: the store is unavailable or the search index is being built; see Retry-After.'),
  };
  const post: ZodOpenApiOperationObject = {
    operationId,
    summary,
    description,
    tags: ['Teller reports'],
    security: [{}, { tellerKey: [] }],
    requestParams: { header: lookupHeaders },
    requestBody: { content: json(body) },
    responses: withHeaders(responses, { rateLimited: true }),
  };
  return { [path]: { post } };
}

/** The service's own endpoints (routes/operations.ts, the metrics plugin, this document): no correspondent header. */
function servicePaths(): ZodOpenApiPathsObject {
  const service = (
    operationId: string,
    summary: string,
    description: string,
    success: ZodOpenApiResponseObject,
    more: Responses = {},
    security: Record<string, string[]>[] = [],
  ) => ({
    get: {
      operationId,
      summary,
      description,
      tags: ['Service'],
      security,
      responses: withHeaders({ ...EVERY_OPERATION, 200: success, ...more }, { rateLimited: false }),
    },
  });
  return {
    '/healthz': service(
      'getLiveness',
      'Alive',
      'The process answers HTTP. Says nothing about the store, so a store outage does not get the process restarted in a loop.',
      { description: 'Alive', content: json(aliveResponse) },
    ),
    '/readyz': service(
      'getReadiness',
      'Ready',
      'The store answers and holds a data set, and the search index is built: lookups can be served. Redis not answering is `degraded`, still 200.',
      { description: 'Ready, or ready but degraded', content: json(readyResponse) },
      {
        503: problemResponse(
          'Service Unavailable: the store is unreachable, holds no data set yet, or the search index is being built; see Retry-After.',
        ),
      },
    ),
    '/metrics': service(
      'getMetrics',
      'Prometheus metrics',
      'Request counts and durations by route and status, and the process metrics, in the Prometheus text format. With METRICS_KEY set it wants that key; with API keys on and no METRICS_KEY it is closed on this port (METRICS_PORT serves it on its own port).',
      {
        description: 'The metrics',
        content: { 'text/plain': { schema: z.string().meta({ description: 'Prometheus text exposition format.' }) } },
      },
      {
        401: problemResponse(
          'Unauthorized: the metrics key is missing or wrong, or the metrics are closed on this port.',
        ),
      },
      [{}, { metricsKey: [] }],
    ),
    '/v1/openapi.json': service(
      'getOpenApiDocument',
      'This OpenAPI document',
      'The OpenAPI 3.1 document of the API, generated from the same declarations as the routes; browsable at /v1/docs.',
      {
        description: 'The document',
        content: json(z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' })),
      },
    ),
  };
}

export function buildOpenApiDocument() {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Receiving-Partner Lookup API',
      version: '1.0.0',
      description:
        'Lookups a sending agent uses to find where a beneficiary can be paid: agents, anywhere payout networks and bank branches, with the reference lists they point to. Every lookup takes the `x-fapi-financial-id` header.',
    },
    servers: [{ url: '/' }],
    tags: [
      {
        name: 'Lookups',
        description: 'The three searches of the spec: agents, anywhere payout networks, bank branches.',
      },
      {
        name: 'Reference',
        description: 'The lists the searches point to (countries, delivery modes, states, cities) and the data status.',
      },
      {
        name: 'Teller reports',
        description: 'A teller tells operations that a served record is wrong; the desk queues and closes the reports.',
      },
      {
        name: 'Operations desk',
        description:
          'docs/operations-desk.md: ops accounts, sign-in, staging partner data changes, review, four-eyes approval, versions, rollback, quality report and audit. Signed in by session cookie (with the CSRF token in x-csrf-token on every POST/PUT/PATCH/DELETE) or an ops API key (Authorization: Bearer); a correspondent id is no ops credential.',
      },
      {
        name: 'Extensions',
        description:
          "Beyond the spec (docs/api-extensions.md): find a record from any code, browse bank → state → city. The spec's operations are unchanged.",
      },
      {
        name: 'Service',
        description: 'Health probes, metrics and this document: no correspondent header, outside the rate limit.',
      },
    ],
    // Every operation, declared once with its route (routes/v1/index.ts, routes/v1/ops/index.ts).
    paths: {
      ...Object.fromEntries(OPERATIONS.map((operation) => [operation.path, lookup(operation as Operation)])),
      ...tellerReportPath(),
      ...opsPaths(),
      ...servicePaths(),
    },
    components: {
      headers: HEADERS,
      securitySchemes: {
        tellerKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API_KEYS_FILE key bound to correspondent ids (docs/operations.md). Asked for only when the service runs with API keys: then every lookup needs it (401 without it or with a wrong one; 403 with a correspondent id it is not bound to). Without API keys no key is asked for.',
        },
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
          description: 'An API_KEYS_FILE key with opsRoles (docs/operations-desk.md); no cookie, no CSRF token.',
        },
        metricsKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'METRICS_KEY, when the operator sets one (docs/operations.md).',
        },
      },
    },
  });
}
