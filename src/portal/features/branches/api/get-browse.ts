import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { BrowseResponse, browseQuery } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';
import { usePrefetchNextPage } from '../../../lib/prefetch';

/** GET /v1/banks/browse (an extension): the branch finder's parameters plus state and city, as in the URL. */
export type BrowseParams = z.input<typeof browseQuery>;

export const getBrowse = (params: BrowseParams, signal?: AbortSignal) => apiGet<BrowseResponse>('/v1/banks/browse', { query: params, signal });

export const browseQueryOptions = (params: BrowseParams) =>
  queryOptions({
    queryKey: ['browse', params],
    queryFn: ({ signal }) => getBrowse(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** `paged`: the answer's page is the table (a state or city is chosen), so the next page is prefetched. */
export function useBrowse(params: BrowseParams, enabled: boolean, paged: boolean) {
  const query = useQuery({ ...browseQueryOptions(params), enabled });
  usePrefetchNextPage(paged && enabled && !query.isPlaceholderData ? query.data?.pagination : undefined, (pageNumber) =>
    browseQueryOptions({ ...params, pageNumber: String(pageNumber) }),
  );
  return query;
}
