import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChangeKind } from '../../../../contract/ops-changes';
import type { RecordPage } from '../../../../contract/ops-records';
import { opsRequest } from '../../../lib/api-client';

export const getRecord = (kind: ChangeKind, key: string, signal?: AbortSignal) =>
  opsRequest<RecordPage>('GET', `/v1/ops/records/${kind}/${encodeURIComponent(key)}`, { signal });

export const recordQueryOptions = (kind: ChangeKind, key: string) =>
  queryOptions({
    queryKey: ['ops', 'record', kind, key],
    queryFn: ({ signal }) => getRecord(kind, key, signal),
  });

export const useRecord = (kind: ChangeKind, key: string) => useQuery(recordQueryOptions(kind, key));
