import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AuditEntry, OpsPage, auditQuery } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';

export type AuditParams = Partial<z.output<typeof auditQuery>>;

export const getAudit = (params: AuditParams, signal?: AbortSignal) =>
  opsRequest<OpsPage<AuditEntry>>('GET', '/v1/ops/audit', { query: params, signal });

export const auditQueryOptions = (params: AuditParams) =>
  queryOptions({
    queryKey: ['ops', 'audit', params],
    queryFn: ({ signal }) => getAudit(params, signal),
    placeholderData: keepPreviousData,
  });

export const useAudit = (params: AuditParams) => useQuery(auditQueryOptions(params));
