import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useDataStatus } from '../api/get-data-status';

const SHORT_HASH = 8;

/** Which data set answers the lookups: per source the rows, file, short content hash and import time. */
export function DataStatusFooter({ enabled }: { enabled: boolean }) {
  const status = useDataStatus(enabled);
  return (
    <Box component="footer" sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', bgcolor: 'grey.50' }}>
      <Typography variant="caption" component="div" color="text.secondary">
        {!enabled && 'Data status appears after sign-in.'}
        {status.isPending && enabled && 'Loading data status…'}
        {status.error && `Data status unavailable: ${status.error.message}`}
        {status.data && (
          <ul
            aria-label="Data status"
            style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: '4px 16px' }}
          >
            {status.data.data.map((source) => (
              <li key={`${source.kind}:${source.file}`}>
                {source.kind} <strong>{source.rows.toLocaleString('en')}</strong> rows · {source.file}
                {source.sha256 && (
                  <>
                    {' '}
                    · <code title={source.sha256}>{source.sha256.slice(0, SHORT_HASH)}</code>
                  </>
                )}{' '}
                · imported{' '}
                <time dateTime={source.importedAt}>
                  {new Date(source.importedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC
                </time>
              </li>
            ))}
          </ul>
        )}
      </Typography>
    </Box>
  );
}
