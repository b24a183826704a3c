import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { ProblemAlert } from './problem-alert';

/**
 * The loading, error and empty states every result list shares. While a new page loads the previous one
 * stays on screen (keepPreviousData) under a thin progress bar, so nothing flickers.
 */
export function QueryStatus({
  isPending,
  isFetching,
  error,
  isEmpty,
  empty,
  onRetry,
  children,
}: {
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  isEmpty: boolean;
  empty: ReactNode;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (error) return <ProblemAlert error={error} onRetry={onRetry} />;
  if (isPending)
    return (
      <Stack spacing={1} aria-busy="true" aria-label="Loading results">
        <LinearProgress aria-label="Loading" />
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} variant="rectangular" height={32} />
        ))}
      </Stack>
    );
  return (
    <div aria-busy={isFetching}>
      <LinearProgress aria-label="Updating results" sx={{ visibility: isFetching ? 'visible' : 'hidden' }} />
      {isEmpty ? (
        <Alert severity="info" role="status">
          {empty}
        </Alert>
      ) : (
        children
      )}
    </div>
  );
}
