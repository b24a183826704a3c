import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CodeLookupResponse } from '../../../../contract';
import { apiGet } from '../../../lib/api-client';

/** GET /v1/codes/{code} (an extension): every record the code names. */
export const getCode = (code: string, signal?: AbortSignal) =>
  apiGet<CodeLookupResponse>(`/v1/codes/${encodeURIComponent(code)}`, { signal });

export const codeQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ['code', code],
    queryFn: ({ signal }) => getCode(code, signal),
    staleTime: 30_000,
  });

export const useCode = (code: string) => useQuery({ ...codeQueryOptions(code), enabled: code !== '' });
