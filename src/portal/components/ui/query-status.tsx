import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from './problem-alert';

/**
 * The loading, error and empty states every result list shares, and the rule that results on screen belong
 * to the fields on screen: while a field holds something the results do not reflect yet (typing,
 * or the answer for new filters not here), the previous results are dimmed, taken out of reach (no copy
 * button, no export) and labelled as previous; while a field is invalid they are hidden.
 */
export function QueryStatus({
  isPending,
  isFetching,
  error,
  isEmpty,
  empty,
  onRetry,
  stale = false,
  invalid = false,
  children,
}: {
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  isEmpty: boolean;
  empty: ReactNode;
  onRetry: () => void;
  /** The results are those of other inputs than the fields show. */
  stale?: boolean;
  /** A field is invalid: no results can belong to it. */
  invalid?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (invalid)
    return (
      <Alert severity="warning" role="status" data-testid="results-hidden">
        {t('results.hidden')}
      </Alert>
    );
  if (error) return <ProblemAlert error={error} onRetry={onRetry} />;
  if (isPending)
    return (
      <Stack spacing={1} aria-busy="true" aria-label={t('results.loadingResults')}>
        <LinearProgress aria-label={t('common.loading')} />
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} variant="rectangular" height={32} />
        ))}
      </Stack>
    );
  return (
    <div aria-busy={isFetching || stale}>
      <LinearProgress
        aria-label={t('results.updating')}
        sx={{ visibility: isFetching || stale ? 'visible' : 'hidden' }}
      />
      {stale && (
        <Alert severity="info" role="status" data-testid="results-stale" sx={{ my: 1 }}>
          {t('results.previous')}
        </Alert>
      )}
      {isEmpty && !stale ? (
        typeof empty === 'string' ? (
          <Alert severity="info" role="status" data-testid="results-empty">
            {empty}
          </Alert>
        ) : (
          empty
        )
      ) : (
        <Box
          data-stale={stale || undefined}
          inert={stale}
          aria-hidden={stale || undefined}
          sx={stale ? { opacity: 0.35, pointerEvents: 'none' } : undefined}
        >
          {isEmpty ? null : children}
        </Box>
      )}
    </div>
  );
}
