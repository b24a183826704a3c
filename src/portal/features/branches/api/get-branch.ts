import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BranchDetailResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

/** GET /v1/banks/branches/{branchId} (an extension): one branch in full. */
export const getBranch = (branchId: string, signal?: AbortSignal) =>
  apiGet<BranchDetailResponse>(`/v1/banks/branches/${encodeURIComponent(branchId)}`, { signal });

export const branchQueryOptions = (branchId: string) =>
  queryOptions({
    queryKey: ['branch', branchId],
    queryFn: ({ signal }) => getBranch(branchId, signal),
    staleTime: 30_000,
  });

export const useBranch = (branchId: string) => useQuery({ ...branchQueryOptions(branchId), enabled: branchId !== '' });
