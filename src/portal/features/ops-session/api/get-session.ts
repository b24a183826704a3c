import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpsSession } from '../../../../contract/ops-auth';
import { ApiError, mayHaveOpsSession, opsRequest, setCsrfToken } from '../../../lib/api-client';

/**
 * The signed-in ops account, or null when there is no session (401, or this browser never signed in: not asked):
 * the desk then shows its sign-in.
 */
export async function getSession(signal?: AbortSignal): Promise<OpsSession | null> {
  if (!mayHaveOpsSession()) return null;
  try {
    const session = await opsRequest<OpsSession>('GET', '/v1/ops/session', { signal });
    setCsrfToken(session.csrfToken);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: ['ops', 'session'], queryFn: ({ signal }) => getSession(signal), staleTime: 60_000 });

export const useSession = () => useQuery(sessionQueryOptions());
