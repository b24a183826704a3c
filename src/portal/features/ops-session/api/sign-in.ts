import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OpsSession, SignInBody } from '../../../../contract/ops-auth';
import { opsRequest, setCsrfToken } from '../../../lib/api-client';
import { sessionQueryOptions } from './get-session';

export async function signIn(body: SignInBody): Promise<OpsSession> {
  const session = await opsRequest<OpsSession>('POST', '/v1/ops/session', { body });
  setCsrfToken(session.csrfToken);
  return session;
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    // A new session: nothing cached under the previous account may show.
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQueryOptions().queryKey, session);
      queryClient.removeQueries({ predicate: ({ queryKey }) => queryKey[0] === 'ops' && queryKey[1] !== 'session' });
    },
  });
}
