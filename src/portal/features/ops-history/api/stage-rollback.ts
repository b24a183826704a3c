import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeSummary } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';

/** Stages a change restoring the version's data: it is diffed and approved like any change. */
export const stageRollback = (versionId: number) =>
  opsRequest<ChangeSummary>('POST', `/v1/ops/versions/${versionId}/rollback`, { body: {} });

export function useStageRollback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stageRollback,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops', 'changes'] }),
  });
}
