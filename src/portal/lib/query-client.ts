import { QueryClient, type Query } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MAX_RETRIES = 3;
/** Retries back off 0.5 s, 1 s, 2 s, never longer: a teller waits for an answer, not for a schedule. */
const MAX_RETRY_DELAY_MS = 2_000;
/** While a list is in error it is asked again this often, so it recovers by itself once the service is back. */
export const ERROR_REFETCH_MS = 2_000;

/** Retries only what may pass on a second try: network errors and 5xx, never a 4xx. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof ApiError && error.isRetryable && failureCount < MAX_RETRIES;
}

export const retryDelay = (attempt: number) => Math.min(500 * 2 ** attempt, MAX_RETRY_DELAY_MS);

/** A query whose last answer was an outage (unreachable, 5xx): the one kind worth asking again unprompted. */
const failedRetryably = (query: Query) => {
  const error = query.state.error;
  return query.state.status === 'error' && error instanceof ApiError && error.isRetryable;
};

/**
 * Outages end by themselves: a query that failed because the service was unreachable or answered
 * 5xx is asked again every ERROR_REFETCH_MS (each ask with its own capped retries), on reconnect
 * (onlineManager) and when the tab gets the focus back (focusManager); the screen shows the answer within
 * seconds of the service's return, without the teller pressing Retry.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        // Reference data changes with a data import, not while a teller is looking at a screen.
        staleTime: 60_000,
        refetchOnWindowFocus: (query) => failedRetryably(query),
        refetchOnReconnect: true,
        refetchInterval: (query) => (failedRetryably(query) ? ERROR_REFETCH_MS : false),
      },
    },
  });
}
