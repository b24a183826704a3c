import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  DEFAULT_PAGE_SIZE,
  agentsQuery,
  branchesQuery,
  payoutNetworksQuery,
} from '../../../contract';
import { BodyPool } from '../../search/body-pool';
import { all, branchRules, countryAndMode, parseLookup, stateOfCountry } from '../../validation';

const JSON_TYPE = 'application/json; charset=utf-8';

// The three operations of the spec: Get Agent List (4.1), Get Anywhere Payout Network (4.2),
// Get Bank Branches (4.3).
export default async function lookupRoutes(app: FastifyInstance) {
  // Search answers are written into pooled buffers, each taken back when its response has closed.
  const bodies = new BodyPool();
  const sendPooled = (reply: FastifyReply, body: Buffer) => {
    reply.raw.once('close', () => bodies.give(body));
    return reply.type(JSON_TYPE).send(body);
  };

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
    const json = index.agentsJson(search, bodies.take);
    if (json) return sendPooled(reply, json);
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
    const search = { ...query, pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE };
    return sendPooled(reply, index.branchesJson(search, bodies.take));
  });
}
