import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QualityReport } from '../../../../contract/ops-quality';
import { opsRequest } from '../../../lib/api-client';

export const getQuality = (signal?: AbortSignal) => opsRequest<QualityReport>('GET', '/v1/ops/quality', { signal });

/** Each check's findings as CSV (downloaded by the browser with the session cookie). */
export const qualityCsvHref = (check: string) => `/v1/ops/quality/${encodeURIComponent(check)}.csv`;

export const qualityQueryOptions = () =>
  queryOptions({ queryKey: ['ops', 'quality'], queryFn: ({ signal }) => getQuality(signal) });

export const useQuality = () => useQuery(qualityQueryOptions());
