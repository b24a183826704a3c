import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ReportsPage, reportsQuery } from '../../../../contract/reports';
import { opsRequest } from '../../../lib/api-client';

export type ReportsParams = Partial<z.output<typeof reportsQuery>>;

export const getReports = (params: ReportsParams, signal?: AbortSignal) =>
  opsRequest<ReportsPage>('GET', '/v1/ops/reports', { query: params, signal });

export const reportsQueryOptions = (params: ReportsParams) =>
  queryOptions({
    queryKey: ['ops', 'reports', params],
    queryFn: ({ signal }) => getReports(params, signal),
    placeholderData: keepPreviousData,
  });

export const useReports = (params: ReportsParams) => useQuery(reportsQueryOptions(params));
