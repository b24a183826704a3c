import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DiffEntry, OpsPage, diffQuery } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';
import { usePrefetchNextPage } from '../../../lib/prefetch';

export type DiffParams = Partial<z.output<typeof diffQuery>>;

export const getDiff = (id: string, params: DiffParams, signal?: AbortSignal) =>
  opsRequest<OpsPage<DiffEntry>>('GET', `/v1/ops/changes/${encodeURIComponent(id)}/diff`, { query: params, signal });

export const diffQueryOptions = (id: string, params: DiffParams) =>
  queryOptions({
    queryKey: ['ops', 'change', id, 'diff', params],
    queryFn: ({ signal }) => getDiff(id, params, signal),
    placeholderData: keepPreviousData,
  });

export function useDiff(id: string, params: DiffParams, enabled: boolean) {
  const query = useQuery({ ...diffQueryOptions(id, params), enabled });
  usePrefetchNextPage(enabled && !query.isPlaceholderData ? query.data?.pagination : undefined, (pageNumber) =>
    diffQueryOptions(id, { ...params, pageNumber }),
  );
  return query;
}
