import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from './problem-alert';

/** The desk's loading and error state of a query: a bar while it loads, the problem (with retry) when it fails. */
export function OpsQueryState({
  query,
}: {
  query: { isPending: boolean; isFetching: boolean; error: unknown; refetch: () => unknown };
}) {
  const { t } = useTranslation();
  if (query.error) return <ProblemAlert error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <LinearProgress
      aria-label={t('common.loading')}
      sx={{ visibility: query.isPending || query.isFetching ? 'visible' : 'hidden' }}
    />
  );
}
