import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeDetail } from '../../../../contract/ops-changes';
import type {
  ChangeComment,
  ChangeComments,
  CommentBody,
  OverlappingChanges,
  WaitingChanges,
} from '../../../../contract/ops-flow';
import { opsRequest } from '../../../lib/api-client';

/**
 * How often the desk asks again while its tab is visible: the inbox, the app bar's count of changes waiting for
 * the checker and a change's comments. Polling (not server-sent events): every instance answers from the shared
 * database, with no channel between instances to keep; TanStack Query stops asking while the tab is hidden.
 */
export const DESK_POLL_MS = 5_000;

const changePath = (id: string, action: string) => `/v1/ops/changes/${encodeURIComponent(id)}/${action}`;

export const waitingQueryOptions = () =>
  queryOptions({
    queryKey: ['ops', 'waiting'],
    queryFn: ({ signal }) => opsRequest<WaitingChanges>('GET', '/v1/ops/changes/waiting', { signal }),
    refetchInterval: DESK_POLL_MS,
  });

export const useWaiting = (enabled: boolean) => useQuery({ ...waitingQueryOptions(), enabled });

export const useOverlapping = (id: string) =>
  useQuery({
    queryKey: ['ops', 'change', id, 'overlapping'],
    queryFn: ({ signal }) => opsRequest<OverlappingChanges>('GET', changePath(id, 'overlapping'), { signal }),
    refetchInterval: DESK_POLL_MS,
  });

export const useComments = (id: string) =>
  useQuery({
    queryKey: ['ops', 'change', id, 'comments'],
    queryFn: ({ signal }) => opsRequest<ChangeComments>('GET', changePath(id, 'comments'), { signal }),
    refetchInterval: DESK_POLL_MS,
  });

export function useAddComment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommentBody) => opsRequest<ChangeComment>('POST', changePath(id, 'comments'), { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops', 'change', id, 'comments'] }),
  });
}

/** Compare again: the change comes back validating; its screen polls it until staged with the new difference. */
export function useRecheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string }) => opsRequest<ChangeDetail>('POST', changePath(id, 'recheck'), { body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
}
