import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ChangeSummary, OpsPage, changesQuery } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';
import { DESK_POLL_MS } from './change-flow';

export type ChangesParams = Partial<z.output<typeof changesQuery>>;

export const getChanges = (params: ChangesParams, signal?: AbortSignal) =>
  opsRequest<OpsPage<ChangeSummary>>('GET', '/v1/ops/changes', { query: params, signal });

export const changesQueryOptions = (params: ChangesParams) =>
  queryOptions({
    queryKey: ['ops', 'changes', params],
    queryFn: ({ signal }) => getChanges(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    // The inbox updates itself while the tab is visible (change-flow.ts).
    refetchInterval: DESK_POLL_MS,
  });

export const useChanges = (params: ChangesParams) => useQuery(changesQueryOptions(params));
