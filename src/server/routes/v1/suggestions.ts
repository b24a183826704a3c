import { agentSuggestionsQuery, branchSuggestionsQuery, suggestionsResponse } from '../../../contract';
import { agentSuggestions, branchSuggestions } from '../../search/suggest';
import { all, branchRules, countryAndMode, stateOfCountry } from '../../validation';
import { FROM_INDEX, defineOperation } from './operation';

// Help for an empty answer (an extension; search/suggest.ts): why the search found nothing, and searches near it
// that do find rows, each tried on the same index version before it is offered.
export const suggestionOperations = [
  defineOperation({
    path: '/v1/suggestions/agents',
    operationId: 'suggestAgentSearches',
    summary: 'Why an agent search finds nothing, and searches that do (extension)',
    description:
      'GET /v1/agents\'s parameters without paging. When that search finds nothing: the cause (another letter case, another name of a place, the "[Bank Name], [Branch Name]" pattern of delivery mode 04, a close spelling, the state filter, or none) and up to 3 searches that find rows, each with the totalItems it finds.',
    tag: 'Extensions',
    query: agentSuggestionsQuery,
    rules: all(countryAndMode, stateOfCountry),
    response: suggestionsResponse,
    ...FROM_INDEX,
    async handle({ searchIndex, query }) {
      return agentSuggestions(searchIndex(), query);
    },
  }),
  defineOperation({
    path: '/v1/suggestions/branches',
    operationId: 'suggestBranchSearches',
    summary: 'Why a bank branch search finds nothing, and searches that do (extension)',
    description:
      "GET /v1/banks/branches's parameters without paging. When that search finds nothing: the cause (another name of a place, a close spelling of a bank, branch location, address or district, a filter that alone excludes every row, or none) and up to 3 searches that find rows, each with the totalItems it finds.",
    tag: 'Extensions',
    query: branchSuggestionsQuery,
    rules: branchRules,
    response: suggestionsResponse,
    ...FROM_INDEX,
    async handle({ searchIndex, query }) {
      return branchSuggestions(searchIndex(), query);
    },
  }),
];
