import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CloseReportBody, Report } from '../../../../contract/reports';
import { opsRequest } from '../../../lib/api-client';

/** Closes a report with the change or version that fixed the record. */
export const closeReport = ({ id, ...body }: CloseReportBody & { id: string }) =>
  opsRequest<Report>('POST', `/v1/ops/reports/${encodeURIComponent(id)}/close`, { body });

export function useCloseReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops', 'reports'] }),
  });
}
