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
  'x-correlation-id': { description: 'The request\'s correlation id, or a new UUID v4 when it had none.', schema: { type: 'string' as const } },
  'x-idempotency-key': { description: 'Echoed when the request carried one.', schema: { type: 'string' as const } },
};

const problemResponse = (description: string) => ({
  description,
  headers: echoedHeaders,
  content: { 'application/problem+json': { schema: problem } },
});

function lookup(
  summary: string,
  description: string,
  query: z.ZodType | undefined,
  response: z.ZodType,
  tags: string[],
  path?: z.ZodType,
): { get: ZodOpenApiOperationObject } {
  return {
    get: {
      summary,
      description,
      tags,
      requestParams: { header: lookupHeaders, ...(query ? { query: query as never } : {}), ...(path ? { path: path as never } : {}) },
      responses: {
        200: { description: 'Success', headers: echoedHeaders, content: { 'application/json': { schema: response } } },
        400: problemResponse('Bad Request: every invalid parameter and header is named in `errors`.'),
        401: problemResponse('Unauthorized: API keys are enabled and the key is missing or wrong.'),
        403: problemResponse('Forbidden: the correspondent id is not registered, or not bound to the key.'),
        429: problemResponse('Too Many Requests: the correspondent\'s rate limit is used up; see Retry-After.'),
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
      { name: 'Extensions', description: 'Beyond the spec (issue #15; docs/api-extensions.md): find a record from any code, browse bank → state → city. The spec\'s operations are unchanged.' },
    ],
    paths: {
      '/v1/agents': lookup('Get Agent List', 'Receiving partner (agent) locations for one country and delivery mode; paged. For delivery mode 04 the answer comes from bank branches and recommends GET /v1/banks/branches.', agentsQuery, agentsResponse, ['Lookups']),
      '/v1/payout-networks': lookup('Get Anywhere Payout Network', 'Payout networks available for a delivery mode and a receiving country.', payoutNetworksQuery, payoutNetworksResponse, ['Lookups']),
      '/v1/banks/branches': lookup('Get Bank Branches', 'Bank branches for delivery mode 04 that the head office pays into; a bank code outside them gives an empty result.', branchesQuery, branchesResponse, ['Lookups']),
      '/v1/receiving-countries': lookup('Get Receiving Countries', 'All served receiving countries with currency and delivery modes.', undefined, receivingCountriesResponse, ['Reference']),
      '/v1/types': lookup('Get Types', 'The allowed delivery modes (`filter=delivery-modes`).', deliveryModesQuery, deliveryModesResponse, ['Reference']),
      '/v1/states': lookup('Get States', 'States of a receiving country: the codes the agent list\'s `state` takes.', statesQuery, statesResponse, ['Reference']),
      '/v1/data-status': lookup('Get Data Status', 'Which data set is being served: per kind the row count, source file, content hash and import time.', undefined, dataStatusResponse, ['Reference']),
      '/v1/codes/{code}': lookup(
        'Find by code (extension)',
        'Any code a customer brings: an IFSC (any case, spaces allowed), a Bangladesh routing number, a bank code (India, Bangladesh, Nigeria) or an agent code. Answers every match (a code may be of two kinds), each branch or bank with the delivery-mode-04 head offices that pay into its bank; no match is 200 with an empty list and the formats the code was tried as. A well-formed IFSC the data set does not hold is checked against Razorpay\'s IFSC list (`issuedIfsc`).',
        codeQuery,
        codeLookupResponse,
        ['Extensions'],
        codePathParams,
      ),
      '/v1/banks/browse': lookup(
        'Browse bank branches (extension)',
        'The branch finder\'s parameters plus `state` and `city`: the page of branches, and the facets to narrow it — the head office\'s banks, the states of the chosen bank, the cities (Bangladesh: districts) of the chosen state — each with its branch count, which is the `totalItems` of the narrower answer.',
        browseQuery,
        browseResponse,
        ['Extensions'],
      ),
      '/v1/cities': lookup('Get Cities', 'Cities of a state of a receiving country.', citiesQuery, citiesResponse, ['Reference']),
    },
  });
}
