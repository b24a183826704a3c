import {
  agentsQuery,
  agentsResponse,
  branchesQuery,
  branchesResponse,
  payoutNetworksQuery,
  payoutNetworksResponse,
} from '../../../contract';
import { all, branchRules, countryAndMode, stateOfCountry } from '../../validation';
import { FROM_INDEX, defineOperation, withPaging } from './operation';

// The three operations of the spec: Get Agent List (4.1), Get Anywhere Payout Network (4.2),
// Get Bank Branches (4.3). Searches answer from the in-memory index (src/server/search), wholly from one data
// version, named in x-data-version.
export const lookupOperations = [
  defineOperation({
    path: '/v1/agents',
    operationId: 'getAgentList',
    summary: 'Get Agent List',
    description:
      'Receiving partner (agent) locations for one country and delivery mode; paged. For delivery mode 04 the answer comes from bank branches and recommends GET /v1/banks/branches.',
    tag: 'Lookups',
    query: agentsQuery,
    rules: all(countryAndMode, stateOfCountry),
    response: agentsResponse,
    ...FROM_INDEX,
    async handle({ searchIndex, query, take, gzipFrom, sendPooled }) {
      const index = searchIndex();
      const search = withPaging(query);
      // The page's JSON is written from the records' JSON kept in the index (search/documents.ts), or its gzip
      // from their gzip records (search/gzip-documents.ts).
      const answer = index.agentsAnswer(search, take, gzipFrom());
      if (answer) return sendPooled(answer.body, answer.encoding);
      const page = index.agents(search);
      // Spec §4.1 rule 1: for delivery mode 04, GET /banks/branches is the recommended operation.
      return {
        ...page,
        recommendation: {
          recommendedOperation: '/v1/banks/branches' as const,
          message:
            'For delivery mode 04 (Account Transfer to Other Bank) use GET /v1/banks/branches; search here as "[Bank Name], [Branch Name]".',
        },
      };
    },
  }),
  defineOperation({
    path: '/v1/payout-networks',
    operationId: 'getPayoutNetworks',
    summary: 'Get Anywhere Payout Network',
    description: 'Payout networks available for a delivery mode and a receiving country.',
    tag: 'Lookups',
    query: payoutNetworksQuery,
    rules: countryAndMode,
    response: payoutNetworksResponse,
    partnerData: true,
    async handle({ app, query }) {
      return { data: await app.store.payoutNetworks(query.receivingCountry, query.deliveryMode) };
    },
  }),
  defineOperation({
    path: '/v1/banks/branches',
    operationId: 'getBankBranches',
    summary: 'Get Bank Branches',
    description:
      'Bank branches for delivery mode 04 that the head office pays into; a bank code outside them gives an empty result.',
    tag: 'Lookups',
    query: branchesQuery,
    rules: branchRules,
    response: branchesResponse,
    ...FROM_INDEX,
    async handle({ searchIndex, query, take, gzipFrom, sendPooled }) {
      const answer = searchIndex().branchesAnswer(withPaging(query), take, gzipFrom());
      return sendPooled(answer.body, answer.encoding);
    },
  }),
];
