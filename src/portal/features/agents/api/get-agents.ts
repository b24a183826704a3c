import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AgentsResponse, agentsQuery } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';
import { usePrefetchNextPage } from '../../../lib/prefetch';

/** The agent list's query as it stands in the URL: the contract's parameters, unparsed. */
export type AgentsParams = z.input<typeof agentsQuery>;

export const getAgents = (params: AgentsParams, signal?: AbortSignal) =>
  apiGet<AgentsResponse>('/v1/agents', { query: params, signal });

export const agentsQueryOptions = (params: AgentsParams) =>
  queryOptions({
    queryKey: ['agents', params],
    queryFn: ({ signal }) => getAgents(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export function useAgents(params: AgentsParams, enabled: boolean) {
  const query = useQuery({ ...agentsQueryOptions(params), enabled });
  usePrefetchNextPage(enabled && !query.isPlaceholderData ? query.data?.pagination : undefined, (pageNumber) =>
    agentsQueryOptions({ ...params, pageNumber: String(pageNumber) }),
  );
  return query;
}
