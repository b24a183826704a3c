import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { statesQuery, statesResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

export type StatesParams = z.input<typeof statesQuery>;
type StatesResponse = z.infer<typeof statesResponse>;

export const getStates = (params: StatesParams, signal?: AbortSignal) =>
  apiGet<StatesResponse>('/v1/states', { query: params, signal });

export const statesQueryOptions = (params: StatesParams) =>
  queryOptions({
    queryKey: ['states', params],
    queryFn: ({ signal }) => getStates(params, signal),
    staleTime: Infinity,
  });

export const useStates = (params: StatesParams, enabled: boolean) =>
  useQuery({ ...statesQueryOptions(params), enabled });
