import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { receivingCountriesResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

type ReceivingCountriesResponse = z.infer<typeof receivingCountriesResponse>;

export const getReceivingCountries = (signal?: AbortSignal) =>
  apiGet<ReceivingCountriesResponse>('/v1/receiving-countries', { signal });

export const receivingCountriesQueryOptions = () =>
  queryOptions({
    queryKey: ['receiving-countries'],
    queryFn: ({ signal }) => getReceivingCountries(signal),
    staleTime: Infinity,
  });

export const useReceivingCountries = (enabled = true) => useQuery({ ...receivingCountriesQueryOptions(), enabled });
