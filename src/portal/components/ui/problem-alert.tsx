import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { translateParameterMessage } from '../../lib/i18n';
import { CopyButton } from './copy-button';

/**
 * An error as a teller reads it: a heading and a sentence in the interface language, each invalid
 * parameter, and the reference (the correlation id) to give to support. The API path and the API's own detail
 * are in the browser console (api-client.ts), never on the screen.
 */
export function ProblemAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <Alert
      severity="error"
      role="alert"
      data-testid="problem"
      action={
        onRetry && (apiError?.isRetryable ?? true) ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{apiError?.title ?? t('common.somethingWentWrong')}</AlertTitle>
      <div>{apiError ? apiError.sentence : error instanceof Error ? error.message : String(error)}</div>
      {apiError?.isRetryable && <div>{t('teller.problems.retrying')}</div>}
      {apiError && apiError.errors.length > 0 && (
        <ul style={{ margin: '4px 0', paddingLeft: 20 }}>
          {apiError.errors.map((e) => (
            <li key={`${e.in}:${e.name}:${e.message}`}>
              <strong>{e.name}</strong> {translateParameterMessage(e.message)}
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
