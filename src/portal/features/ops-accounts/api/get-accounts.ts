import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpsAccount } from '../../../../contract/ops-auth';
import { opsRequest } from '../../../lib/api-client';

export const getAccounts = (signal?: AbortSignal) =>
  opsRequest<{ data: OpsAccount[] }>('GET', '/v1/ops/accounts', { signal });

export const accountsQueryOptions = () =>
  queryOptions({ queryKey: ['ops', 'accounts'], queryFn: ({ signal }) => getAccounts(signal) });

export const useAccounts = (enabled: boolean) => useQuery({ ...accountsQueryOptions(), enabled });
