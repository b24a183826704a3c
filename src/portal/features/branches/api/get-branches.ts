import { keepPreviousData, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
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

/**
 * For an empty answer to a bank code: which of the other head offices do pay into that bank or branch
 * (one row each is enough to know). Runs only when asked, one small request per head office.
 */
export function useHeadOfficesPayingInto(
  params: Omit<BranchesParams, 'receivingAgentHeadOfficeCode'>,
  headOfficeCodes: string[],
  enabled: boolean,
) {
  return useQueries({
    queries: headOfficeCodes.map((code) => ({
      ...branchesQueryOptions({ ...params, receivingAgentHeadOfficeCode: code, pageNumber: '1', pageSize: '1' }),
      placeholderData: undefined,
      enabled,
    })),
    combine: (results) => ({
      isPending: results.some((r) => r.isPending),
      codes: headOfficeCodes.filter((_, i) => (results[i].data?.pagination.totalItems ?? 0) > 0),
    }),
  });
}
