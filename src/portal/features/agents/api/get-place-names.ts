import { useQueries } from '@tanstack/react-query';
import type { z } from 'zod';
import type { citiesResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

type CitiesResponse = z.infer<typeof citiesResponse>;

export const getCities = (receivingCountry: string, state: string, signal?: AbortSignal) =>
  apiGet<CitiesResponse>('/v1/cities', { query: { receivingCountry, state }, signal });

/**
 * The city names of the given states (the reference lookup /v1/cities, cached like the other reference lists):
 * the places an agent search may have meant, asked for only when an answer came back empty.
 */
export function useCityNames(receivingCountry: string, states: string[], enabled: boolean): string[] {
  return useQueries({
    queries: states.map((state) => ({
      queryKey: ['cities', { receivingCountry, state }],
      queryFn: ({ signal }: { signal: AbortSignal }) => getCities(receivingCountry, state, signal),
      staleTime: Infinity,
      enabled,
    })),
    combine: (results) => results.flatMap((result) => result.data?.data.map((city) => city.name) ?? []),
  });
}
