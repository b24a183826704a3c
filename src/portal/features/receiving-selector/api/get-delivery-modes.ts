import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { deliveryModesResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

type DeliveryModesResponse = z.infer<typeof deliveryModesResponse>;

export const getDeliveryModes = (signal?: AbortSignal) =>
  apiGet<DeliveryModesResponse>('/v1/types', { query: { filter: 'delivery-modes' }, signal });

export const deliveryModesQueryOptions = () =>
  queryOptions({
    queryKey: ['types', 'delivery-modes'],
    queryFn: ({ signal }) => getDeliveryModes(signal),
    staleTime: Infinity,
  });

export const useDeliveryModes = (enabled = true) => useQuery({ ...deliveryModesQueryOptions(), enabled });
