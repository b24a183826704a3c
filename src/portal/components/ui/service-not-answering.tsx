import { useEffect, useState, useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';
import { NOT_ANSWERING_AFTER_MS, subscribeUnanswered, unansweredRequests } from '../../lib/unanswered';
import { CopyButton } from './copy-button';

/**
 * Tells the teller the service is not answering (slow is not down): shown, above every screen, while a request
 * has waited NOT_ANSWERING_AFTER_MS, with when it was sent and its reference; gone by itself once the answers
 * come back (the requests keep being sent again, lib/unanswered.ts). The seconds that tick are hidden from
 * screen readers, which would otherwise read the alert again every second; they hear the time it was sent.
 */
export function ServiceNotAnswering() {
  const { t } = useTranslation();
  const waiting = useSyncExternalStore(subscribeUnanswered, unansweredRequests);
  const [now, setNow] = useState(() => Date.now());
  const oldest = waiting[0];
  useEffect(() => {
    if (!oldest) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [oldest]);
  if (!oldest || now - oldest.sentAt < NOT_ANSWERING_AFTER_MS) return null;
  const sentAt = new Intl.DateTimeFormat(currentLanguage(), { timeStyle: 'medium' }).format(oldest.sentAt);
  return (
    <Box
      sx={{
        position: 'fixed',
        bottom: 16,
        left: 0,
        right: 0,
        px: 1,
        zIndex: 'snackbar',
        display: 'flex',
        justifyContent: 'center',
        pointerEvents: 'none',
      }}
    >
      <Alert
        severity="warning"
        variant="filled"
        role="alert"
        data-testid="service-not-answering"
        sx={{ maxWidth: 640, width: '100%', pointerEvents: 'auto', boxShadow: 6 }}
      >
        <AlertTitle>{t('service.notAnswering.title')}</AlertTitle>
        <div>
          {t('service.notAnswering.sentAt', { time: sentAt })}{' '}
          <span aria-hidden="true" data-testid="service-waited">
            {t('service.notAnswering.waited', { seconds: Math.floor((now - oldest.sentAt) / 1000) })}
          </span>
        </div>
        <div>{t('service.notAnswering.text')}</div>
        <div>
          {t('common.correlationId')} <code data-testid="service-reference">{oldest.reference}</code>
          <CopyButton value={oldest.reference} label={t('common.correlationIdLabel')} />
        </div>
      </Alert>
    </Box>
  );
}
