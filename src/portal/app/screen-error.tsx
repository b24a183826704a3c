import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import type { FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';

const RETRY_EVERY_MS = 3_000;

/** The file the browser could not load, from "Failed to fetch dynamically imported module: <url>". */
function failedModule(error: unknown): string | undefined {
  const match = error instanceof Error ? /https?:\/\/\S+\.js/.exec(error.message) : null;
  return match?.[0];
}

/**
 * A screen that failed (most often its code chunk could not be fetched: the server restarting, the network
 * gone) is reported inside the layout, so the app bar and tabs stay usable. The browser keeps a
 * failed module import failed, so the retry is a reload, done by itself once the file answers again.
 */
export function ScreenError({ error }: FallbackProps) {
  const { t } = useTranslation();
  const module = failedModule(error);
  useEffect(() => {
    const probe = module ?? '/';
    const timer = setInterval(() => {
      fetch(probe, { method: 'HEAD', cache: 'no-store' })
        .then((response) => response.ok && window.location.reload())
        .catch(() => undefined); // still unreachable: try again at the next tick
    }, RETRY_EVERY_MS);
    return () => clearInterval(timer);
  }, [module]);

  return (
    <Alert
      severity="error"
      role="alert"
      action={
        <Button color="inherit" size="small" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>
      }
    >
      <AlertTitle>{t('screenError.title')}</AlertTitle>
      {module
        ? t('screenError.fetchFailed')
        : t('screenError.other', { message: error instanceof Error ? error.message : String(error) })}
    </Alert>
  );
}
