import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChangeDetail } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';

export const getChange = (id: string, signal?: AbortSignal) =>
  opsRequest<ChangeDetail>('GET', `/v1/ops/changes/${encodeURIComponent(id)}`, { signal });

/** While the change is validated and diffed the screen polls it: its `progress` drives the second bar. */
export const changeQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['ops', 'change', id],
    queryFn: ({ signal }) => getChange(id, signal),
    staleTime: 2_000,
    refetchInterval: (query) => (query.state.data?.status === 'validating' ? 500 : false),
  });

export const useChange = (id: string) => useQuery(changeQueryOptions(id));
