import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeSummary } from '../../../../contract/ops-changes';
import type { EditsBody } from '../../../../contract/ops-edits';
import { opsRequest } from '../../../lib/api-client';

/**
 * Stages a change without a file (POST /v1/ops/changes, application/json): one record added, changed or removed.
 * The answer is the staged change, as an upload's; it is validated and diffed like a file.
 */
export const stageEdits = (body: EditsBody) => opsRequest<ChangeSummary>('POST', '/v1/ops/changes', { body });

export function useStageEdits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stageEdits,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops', 'changes'] }),
  });
}
