import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { OpsPage, VersionSummary, versionsQuery } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';

export type VersionsParams = Partial<z.output<typeof versionsQuery>>;

export const getVersions = (params: VersionsParams, signal?: AbortSignal) =>
  opsRequest<OpsPage<VersionSummary>>('GET', '/v1/ops/versions', { query: params, signal });

export const versionsQueryOptions = (params: VersionsParams) =>
  queryOptions({
    queryKey: ['ops', 'versions', params],
    queryFn: ({ signal }) => getVersions(params, signal),
    placeholderData: keepPreviousData,
  });

export const useVersions = (params: VersionsParams) => useQuery(versionsQueryOptions(params));
