import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorSentence } from '../../../lib/api-client';
import { currentLanguage, formatNumber } from '../../../lib/i18n';
import { useDataStatus } from '../api/get-data-status';

const SHORT_HASH = 8;

/** Which data set answers the lookups: per source the rows, file, short content hash and import time. */
export function DataStatusFooter({ enabled }: { enabled: boolean }) {
  const { t, i18n } = useTranslation();
  const status = useDataStatus(enabled);
  // The import time in the teller's language, always in UTC (the data set is the same for every teller);
  // Intl refuses timeZoneName next to dateStyle, so "UTC" is written after it.
  const importedAt = new Intl.DateTimeFormat(currentLanguage(), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return (
    <Box component="footer" sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', bgcolor: 'grey.50' }}>
      <Typography variant="caption" component="div" color="text.secondary">
        {!enabled && t('dataStatus.afterSignIn')}
        {status.isPending && enabled && t('dataStatus.loading')}
        {status.error && t('dataStatus.unavailable', { message: errorSentence(status.error) })}
        {status.data && (
          <ul
            aria-label={t('dataStatus.label')}
            style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: '4px 16px' }}
          >
            {status.data.data.map((source) => (
              <li key={`${source.kind}:${source.file}`}>
                {i18n.exists(`teller.sourceKinds.${source.kind}`)
                  ? t(`teller.sourceKinds.${source.kind}` as 'teller.sourceKinds.agents')
                  : source.kind}{' '}
                <strong>{formatNumber(source.rows)}</strong> {t('dataStatus.rows', { count: source.rows })} ·{' '}
                {source.file}
                {source.sha256 && (
                  <>
                    {' '}
                    · <code title={source.sha256}>{source.sha256.slice(0, SHORT_HASH)}</code>
                  </>
                )}{' '}
                · {t('dataStatus.imported')}{' '}
                <time dateTime={source.importedAt}>{importedAt.format(new Date(source.importedAt))} UTC</time>
              </li>
            ))}
          </ul>
        )}
      </Typography>
    </Box>
  );
}
