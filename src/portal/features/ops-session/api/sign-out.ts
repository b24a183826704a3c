import { useMutation, useQueryClient } from '@tanstack/react-query';
import { opsRequest, setCsrfToken } from '../../../lib/api-client';
import { sessionQueryOptions } from './get-session';

export const signOut = () => opsRequest<void>('DELETE', '/v1/ops/session');

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: () => {
      setCsrfToken(null);
      queryClient.setQueryData(sessionQueryOptions().queryKey, null);
      queryClient.removeQueries({ predicate: ({ queryKey }) => queryKey[0] === 'ops' && queryKey[1] !== 'session' });
    },
  });
}
