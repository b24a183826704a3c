import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { ApiError } from '../../lib/api-client';
import { CopyButton } from './copy-button';

/** An error as the API gave it: its message, each invalid parameter, and the correlation id for support. */
export function ProblemAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        onRetry && (apiError?.isRetryable ?? true) ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{apiError?.title ?? 'Something went wrong'}</AlertTitle>
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
          Correlation id: <code data-testid="correlation-id">{apiError.correlationId}</code>
          <CopyButton value={apiError.correlationId} label="correlation id" />
        </div>
      )}
    </Alert>
  );
}
