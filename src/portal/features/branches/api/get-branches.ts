import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { BranchesResponse, branchesQuery } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';
import { usePrefetchNextPage } from '../../../lib/prefetch';

/** The bank-branch query as it stands in the URL: the contract's parameters, unparsed. */
export type BranchesParams = z.input<typeof branchesQuery>;

export const getBranches = (params: BranchesParams, signal?: AbortSignal) =>
  apiGet<BranchesResponse>('/v1/banks/branches', { query: params, signal });

export const branchesQueryOptions = (params: BranchesParams) =>
  queryOptions({
    queryKey: ['branches', params],
    queryFn: ({ signal }) => getBranches(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export function useBranches(params: BranchesParams, enabled: boolean) {
  const query = useQuery({ ...branchesQueryOptions(params), enabled });
  usePrefetchNextPage(enabled && !query.isPlaceholderData ? query.data?.pagination : undefined, (pageNumber) =>
    branchesQueryOptions({ ...params, pageNumber: String(pageNumber) }),
  );
  return query;
}
