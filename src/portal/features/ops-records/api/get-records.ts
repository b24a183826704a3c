import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OpsPage } from '../../../../contract/ops-changes';
import type { RecordMatch, RecordsQuery } from '../../../../contract/ops-records';
import { opsRequest } from '../../../lib/api-client';
import { usePrefetchNextPage } from '../../../lib/prefetch';

/** The search as the URL holds it: the page's number and size as text. */
export type RecordsParams = Pick<RecordsQuery, 'kind' | 'q' | 'country'> & {
  pageNumber?: string | number;
  pageSize?: string | number;
};

export const getRecords = (params: RecordsParams, signal?: AbortSignal) =>
  opsRequest<OpsPage<RecordMatch>>('GET', '/v1/ops/records', { query: params, signal });

export const recordsQueryOptions = (params: RecordsParams) =>
  queryOptions({
    queryKey: ['ops', 'records', params],
    queryFn: ({ signal }) => getRecords(params, signal),
    placeholderData: keepPreviousData,
  });

export function useRecords(params: RecordsParams) {
  const query = useQuery(recordsQueryOptions(params));
  usePrefetchNextPage(query.isPlaceholderData ? undefined : query.data?.pagination, (pageNumber) =>
    recordsQueryOptions({ ...params, pageNumber }),
  );
  return query;
}
