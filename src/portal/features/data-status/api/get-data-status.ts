import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DataStatusResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

export const getDataStatus = (signal?: AbortSignal) => apiGet<DataStatusResponse>('/v1/data-status', { signal });

export const dataStatusQueryOptions = () =>
  queryOptions({ queryKey: ['data-status'], queryFn: ({ signal }) => getDataStatus(signal) });

export const useDataStatus = (enabled: boolean) => useQuery({ ...dataStatusQueryOptions(), enabled });
