import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { payoutNetworksQuery, payoutNetworksResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

export type PayoutNetworksParams = z.input<typeof payoutNetworksQuery>;
export type PayoutNetworksResponse = z.infer<typeof payoutNetworksResponse>;

export const getPayoutNetworks = (params: PayoutNetworksParams, signal?: AbortSignal) =>
  apiGet<PayoutNetworksResponse>('/v1/payout-networks', { query: params, signal });

export const payoutNetworksQueryOptions = (params: PayoutNetworksParams) =>
  queryOptions({
    queryKey: ['payout-networks', params],
    queryFn: ({ signal }) => getPayoutNetworks(params, signal),
  });

export const usePayoutNetworks = (params: PayoutNetworksParams, enabled: boolean) =>
  useQuery({ ...payoutNetworksQueryOptions(params), enabled });
