import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { payoutNetworksResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

type PayoutNetworksResponse = z.infer<typeof payoutNetworksResponse>;

/**
 * The country's mode-04 head offices (GET /v1/payout-networks), under the payout-networks screen's query key so
 * both share one answer.
 */
export const useAccountTransferHeadOffices = (receivingCountry: string, enabled: boolean) => {
  const params = { receivingCountry, deliveryMode: '04' };
  return useQuery({
    queryKey: ['payout-networks', params],
    queryFn: ({ signal }) => apiGet<PayoutNetworksResponse>('/v1/payout-networks', { query: params, signal }),
    enabled,
  });
};
