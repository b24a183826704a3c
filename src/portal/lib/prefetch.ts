/* eslint-disable @typescript-eslint/no-explicit-any -- the options' types vary per screen (data, error, key):
   this hook only hands them to prefetchQuery. */
import { useEffect } from 'react';
import { useQueryClient, type FetchQueryOptions } from '@tanstack/react-query';
import type { Pagination } from '../../contract';

/** Prefetches the next page once a page has arrived, so "next" answers from the cache. */
export function usePrefetchNextPage(
  pagination: Pagination | undefined,
  nextPage: (pageNumber: number) => FetchQueryOptions<any, any, any, any>,
) {
  const queryClient = useQueryClient();
  const next = pagination && pagination.pageNumber < pagination.totalPages ? pagination.pageNumber + 1 : undefined;
  const options = next === undefined ? undefined : nextPage(next);
  const key = options ? JSON.stringify(options.queryKey) : '';
  useEffect(() => {
    if (options) void queryClient.prefetchQuery(options);
    // `options` is a new object every render: its query key (`key`) is what says the page changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, queryClient]);
}
