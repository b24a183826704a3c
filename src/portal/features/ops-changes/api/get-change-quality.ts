import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChangeQuality } from '../../../../contract/ops-quality';
import { opsRequest } from '../../../lib/api-client';

export const getChangeQuality = (id: string, signal?: AbortSignal) =>
  opsRequest<ChangeQuality>('GET', `/v1/ops/changes/${encodeURIComponent(id)}/quality`, { signal });

/** Under the change's key: refreshed with it (a decision, a re-diff). */
export const changeQualityQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['ops', 'change', id, 'quality'],
    queryFn: ({ signal }) => getChangeQuality(id, signal),
    staleTime: 2_000,
  });

export const useChangeQuality = (id: string, enabled = true) => useQuery({ ...changeQualityQueryOptions(id), enabled });
