import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { CopyButton } from './copy-button';

/** An error as the API gave it: its message, each invalid parameter, and the correlation id for support. */
export function ProblemAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        onRetry && (apiError?.isRetryable ?? true) ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{apiError?.title ?? t('common.somethingWentWrong')}</AlertTitle>
      <div>{error instanceof Error ? error.message : String(error)}</div>
      {apiError && apiError.errors.length > 0 && (
        <ul style={{ margin: '4px 0', paddingLeft: 20 }}>
          {apiError.errors.map((e) => (
            <li key={`${e.in}:${e.name}:${e.message}`}>
              <strong>{e.name}</strong> {e.message}
            </li>
          ))}
        </ul>
      )}
      {apiError && (
        <div>
          {t('common.correlationId')} <code data-testid="correlation-id">{apiError.correlationId}</code>
          <CopyButton value={apiError.correlationId} label={t('common.correlationIdLabel')} />
        </div>
      )}
    </Alert>
  );
}
