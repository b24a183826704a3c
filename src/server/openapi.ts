import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import { lookupHeaders, problem } from '../contract';
import type { Operation } from './routes/v1/operation';
import { OPERATIONS } from './routes/v1';

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
        name: 'Extensions',
        description:
          "Beyond the spec (issue #15; docs/api-extensions.md): find a record from any code, browse bank → state → city. The spec's operations are unchanged.",
      },
    ],
    // Every operation, declared once with its route (routes/v1/index.ts).
    paths: Object.fromEntries(OPERATIONS.map((operation) => [operation.path, lookup(operation as Operation)])),
  });
}
