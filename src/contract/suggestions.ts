import { z } from 'zod';
import { agentsQuery, branchesQuery } from './lookups';

// Help for an empty answer (an extension): why a search found nothing, and searches that do find rows, each
// tried on the served index before it is offered, with the count it finds.

export const agentSuggestionsQuery = agentsQuery.omit({ pageNumber: true, pageSize: true });
export type AgentSuggestionsQuery = z.output<typeof agentSuggestionsQuery>;

export const branchSuggestionsQuery = branchesQuery.omit({ pageNumber: true, pageSize: true });
export type BranchSuggestionsQuery = z.output<typeof branchSuggestionsQuery>;

export const SUGGESTION_KINDS = ['case', 'alias', 'pattern', 'spelling', 'filter'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

/** The fields a suggestion may change: a new value, or '' to leave the filter out. */
export const SUGGESTION_FIELDS = ['search', 'state', 'bankName', 'branchLocation', 'address', 'district'] as const;
export type SuggestionField = (typeof SUGGESTION_FIELDS)[number];

export const searchSuggestion = z
  .object({
    kind: z.enum(SUGGESTION_KINDS).meta({
      description:
        'case: the same words in another letter case; alias: another name of a place (Chittagong = Chattogram); pattern: the agent list pattern "[Bank Name], [Branch Name]" of delivery mode 04; spelling: a close spelling of the words of the index (edit distance 1–2); filter: one filter left out.',
    }),
    changes: z
      .object({
        search: z.string(),
        state: z.string(),
        bankName: z.string(),
        branchLocation: z.string(),
        address: z.string(),
        district: z.string(),
      })
      .partial()
      .meta({ description: "The parameters to change: a new value, or '' to leave that filter out." }),
    totalItems: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'The totalItems of the search with these changes (tried before it is offered).' }),
  })
  .meta({ id: 'SearchSuggestion' });
export type SearchSuggestion = z.infer<typeof searchSuggestion>;

export const suggestionsResponse = z
  .object({
    totalItems: z.number().int().meta({ description: 'The totalItems of the search as asked.' }),
    cause: z
      .enum([...SUGGESTION_KINDS, 'none'])
      .nullable()
      .meta({
        description:
          "Why the search as asked finds nothing, the first suggestion's kind; none: nothing of the country matches, whatever the case, place name, spelling or filters; null when it finds rows.",
      }),
    filter: z
      .enum(SUGGESTION_FIELDS)
      .nullable()
      .meta({ description: 'With cause "filter": the filter that excludes every row.' }),
    suggestions: z.array(searchSuggestion).meta({ description: 'At most 3, the most likely first.' }),
  })
  .meta({ id: 'SuggestionsResponse' });
export type SuggestionsResponse = z.infer<typeof suggestionsResponse>;
