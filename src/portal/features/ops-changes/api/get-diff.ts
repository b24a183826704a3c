import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DiffEntry, OpsPage, diffQuery } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';
import { usePrefetchNextPage } from '../../../lib/prefetch';

export type DiffParams = Partial<z.output<typeof diffQuery>>;

/**
 * Where a difference's entries are read, when not a change's own: another answer of the same entries, filtered and
 * paged alike (two versions compared: GET /v1/ops/versions/compare), with its own query.
 */
export interface DiffSource {
  path: string;
  query: Record<string, string | number>;
}

export const getDiff = (id: string, params: DiffParams, signal?: AbortSignal, source?: DiffSource) =>
  opsRequest<OpsPage<DiffEntry>>('GET', source?.path ?? `/v1/ops/changes/${encodeURIComponent(id)}/diff`, {
    query: { ...source?.query, ...params },
    signal,
  });

export const diffQueryOptions = (id: string, params: DiffParams, source?: DiffSource) =>
  queryOptions({
    queryKey: ['ops', 'change', id, 'diff', params, source ?? null],
    queryFn: ({ signal }) => getDiff(id, params, signal, source),
    placeholderData: keepPreviousData,
  });

export function useDiff(id: string, params: DiffParams, enabled: boolean, source?: DiffSource) {
  const query = useQuery({ ...diffQueryOptions(id, params, source), enabled });
  usePrefetchNextPage(enabled && !query.isPlaceholderData ? query.data?.pagination : undefined, (pageNumber) =>
    diffQueryOptions(id, { ...params, pageNumber }, source),
  );
  return query;
}
