import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MAX_RETRIES = 2;

/** Retries only what may pass on a second try: network errors and 5xx, never a 4xx. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof ApiError && error.isRetryable && failureCount < MAX_RETRIES;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // Reference data changes with a data import, not while a teller is looking at a screen.
        staleTime: 60_000,
        refetchOnWindowFocus: false,
      },
    },
  });
}
