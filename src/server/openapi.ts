import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import type { z } from 'zod';
import {
  agentsQuery,
  agentsResponse,
  branchesQuery,
  branchesResponse,
  browseQuery,
  browseResponse,
  codeLookupResponse,
  codePathParams,
  codeQuery,
  citiesQuery,
  citiesResponse,
  dataStatusResponse,
  deliveryModesQuery,
  deliveryModesResponse,
  lookupHeaders,
  payoutNetworksQuery,
  payoutNetworksResponse,
  problem,
  receivingCountriesResponse,
  statesQuery,
  statesResponse,
} from '../contract';

// The OpenAPI 3.1 document, generated from the contract's zod schemas: nothing here re-declares a field.

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

function lookup({ summary, description, query, path, response, tag }: LookupOperation): {
  get: ZodOpenApiOperationObject;
} {
  return {
    get: {
      summary,
      description,
      tags: [tag],
      requestParams: {
        header: lookupHeaders,
        ...(query ? { query: query as never } : {}),
        ...(path ? { path: path as never } : {}),
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

/** One lookup operation as the API reference describes it: what it does, its query and its answer. */
export interface LookupOperation {
  summary: string;
  description: string;
  query?: z.ZodObject;
  /** Parameters in the path (`{code}`), for the operations that take one. */
  path?: z.ZodObject;
  response: z.ZodType;
  tag: 'Lookups' | 'Reference' | 'Extensions';
}

/**
 * Every lookup operation, by path: the OpenAPI document is built from this list, and the tests (property suite,
 * OpenAPI test) take the operations from it. A new endpoint adds its entry here and its route in routes/v1.
 */
export const LOOKUP_OPERATIONS = {
  '/v1/agents': {
    summary: 'Get Agent List',
    description:
      'Receiving partner (agent) locations for one country and delivery mode; paged. For delivery mode 04 the answer comes from bank branches and recommends GET /v1/banks/branches.',
    query: agentsQuery,
    response: agentsResponse,
    tag: 'Lookups',
  },
  '/v1/payout-networks': {
    summary: 'Get Anywhere Payout Network',
    description: 'Payout networks available for a delivery mode and a receiving country.',
    query: payoutNetworksQuery,
    response: payoutNetworksResponse,
    tag: 'Lookups',
  },
  '/v1/banks/branches': {
    summary: 'Get Bank Branches',
    description:
      'Bank branches for delivery mode 04 that the head office pays into; a bank code outside them gives an empty result.',
    query: branchesQuery,
    response: branchesResponse,
    tag: 'Lookups',
  },
  '/v1/receiving-countries': {
    summary: 'Get Receiving Countries',
    description: 'All served receiving countries with currency and delivery modes.',
    response: receivingCountriesResponse,
    tag: 'Reference',
  },
  '/v1/types': {
    summary: 'Get Types',
    description: 'The allowed delivery modes (`filter=delivery-modes`).',
    query: deliveryModesQuery,
    response: deliveryModesResponse,
    tag: 'Reference',
  },
  '/v1/states': {
    summary: 'Get States',
    description: "States of a receiving country: the codes the agent list's `state` takes.",
    query: statesQuery,
    response: statesResponse,
    tag: 'Reference',
  },
  '/v1/data-status': {
    summary: 'Get Data Status',
    description: 'Which data set is being served: per kind the row count, source file, content hash and import time.',
    response: dataStatusResponse,
    tag: 'Reference',
  },
  '/v1/cities': {
    summary: 'Get Cities',
    description: 'Cities of a state of a receiving country.',
    query: citiesQuery,
    response: citiesResponse,
    tag: 'Reference',
  },
  '/v1/codes/{code}': {
    summary: 'Find by code (extension)',
    description:
      "Any code a customer brings: an IFSC (any case, spaces allowed), a Bangladesh routing number, a bank code (India, Bangladesh, Nigeria) or an agent code. Answers every match (a code may be of two kinds), each branch or bank with the delivery-mode-04 head offices that pay into its bank; no match is 200 with an empty list and the formats the code was tried as. A well-formed IFSC the data set does not hold is checked against Razorpay's IFSC list (`issuedIfsc`).",
    query: codeQuery,
    path: codePathParams,
    response: codeLookupResponse,
    tag: 'Extensions',
  },
  '/v1/banks/browse': {
    summary: 'Browse bank branches (extension)',
    description:
      "The branch finder's parameters plus `state` and `city`: the page of branches, and the facets to narrow it — the head office's banks, the states of the chosen bank, the cities (Bangladesh: districts) of the chosen state — each with its branch count, which is the `totalItems` of the narrower answer.",
    query: browseQuery,
    response: browseResponse,
    tag: 'Extensions',
  },
} as const satisfies Record<string, LookupOperation>;

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
    paths: Object.fromEntries(
      Object.entries(LOOKUP_OPERATIONS).map(([path, operation]) => [path, lookup(operation as LookupOperation)]),
    ),
  });
}
