import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApproveBody, ChangeSummary, RejectBody } from '../../../../contract/ops-changes';
import { opsRequest } from '../../../lib/api-client';

const changePath = (id: string, action: string) => `/v1/ops/changes/${encodeURIComponent(id)}/${action}`;

export const approveChange = ({ id, body }: { id: string; body: ApproveBody }) =>
  opsRequest<ChangeSummary>('POST', changePath(id, 'approve'), { body });

export const rejectChange = ({ id, body }: { id: string; body: RejectBody }) =>
  opsRequest<ChangeSummary>('POST', changePath(id, 'reject'), { body });

export const discardChange = ({ id }: { id: string }) =>
  opsRequest<ChangeSummary>('POST', changePath(id, 'discard'), { body: {} });

/** After any decision the change, the lists and (after a publish) the history are fetched again. */
function useDecision<V extends { id: string }>(decide: (variables: V) => Promise<ChangeSummary>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decide,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
}

export const useApproveChange = () => useDecision(approveChange);
export const useRejectChange = () => useDecision(rejectChange);
export const useDiscardChange = () => useDecision(discardChange);
