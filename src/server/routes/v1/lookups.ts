import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_PAGE_SIZE,
  agentsQuery,
  branchesQuery,
  payoutNetworksQuery,
} from '../../../contract';
import { all, branchRules, countryAndMode, parseLookup, stateOfCountry } from '../../validation';

const JSON_TYPE = 'application/json; charset=utf-8';

// The three operations of the spec: Get Agent List (4.1), Get Anywhere Payout Network (4.2),
// Get Bank Branches (4.3).
export default async function lookupRoutes(app: FastifyInstance) {
  // Partner data (agents, networks, branches, with addresses and phone numbers) is never stored by a browser
  // or a proxy; set before anything else so errors carry it too.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // Searches answer from the in-memory index (src/server/search), wholly from one data version, named in
  // x-data-version.
  app.get('/agents', async (request, reply) => {
    const query = parseLookup(request, agentsQuery, app.reference, all(countryAndMode, stateOfCountry));
    const index = app.searchIndex.index();
    reply.header('x-data-version', index.version);
    const search = { ...query, pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE };
    // The page's JSON is written from the records' JSON kept in the index (search/documents.ts).
    const json = index.agentsJson(search);
    if (json) return reply.type(JSON_TYPE).send(json);
    const page = index.agents(search);
    // Spec §4.1 rule 1: for delivery mode 04, GET /banks/branches is the recommended operation.
    return {
      ...page,
      recommendation: {
        recommendedOperation: '/v1/banks/branches' as const,
        message: 'For delivery mode 04 (Account Transfer to Other Bank) use GET /v1/banks/branches; search here as "[Bank Name], [Branch Name]".',
      },
    };
  });

  app.get('/payout-networks', async (request) => {
    const query = parseLookup(request, payoutNetworksQuery, app.reference, countryAndMode);
    return { data: await app.store.payoutNetworks(query.receivingCountry, query.deliveryMode) };
  });

  app.get('/banks/branches', async (request, reply) => {
    const query = parseLookup(request, branchesQuery, app.reference, branchRules);
    const index = app.searchIndex.index();
    reply.header('x-data-version', index.version);
    const json = index.branchesJson({ ...query, pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE });
    return reply.type(JSON_TYPE).send(json);
  });
}
