import { Link as RouterLink } from 'wouter';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../components/ui/ops-format';
import { useOverlapping } from '../api/change-flow';

/** The other pending changes of the same kind and countries: publishing one makes the others out of date. */
export function OverlappingChanges({ changeId }: { changeId: string }) {
  const { t } = useTranslation();
  const query = useOverlapping(changeId);
  const others = query.data?.data ?? [];
  if (!query.data) return null;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="overlap-title"
      sx={{ p: 2 }}
      data-testid="overlapping"
    >
      <Stack spacing={1}>
        <Typography id="overlap-title" component="h2" variant="h6">
          {t('ops.flow.overlapTitle')}
        </Typography>
        {others.length === 0 ? (
          <Typography variant="body2">{t('ops.flow.overlapNone')}</Typography>
        ) : (
          <>
            <Typography variant="body2">{t('ops.flow.overlapHint')}</Typography>
            <Stack component="ul" spacing={1} sx={{ m: 0, pl: 2.5 }}>
              {others.map((other) => (
                <li key={other.id} data-testid="overlapping-change">
                  <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <Link component={RouterLink} to={`/changes/${other.id}`} sx={{ overflowWrap: 'anywhere' }}>
                      {other.fileName}
                    </Link>
                    {/* Text, not the status chip: the page's own status is the one chip (change-status). */}
                    <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
                      {t(`ops.status.${other.status}`)}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t('ops.change.staged', {
                        kind: t(`ops.kinds.${other.kind}`),
                        countries: other.countries.join(', ') || '—',
                        by: other.stagedBy,
                        at: formatTime(other.stagedAt),
                      })}
                    </Typography>
                  </Stack>
                </li>
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Paper>
  );
}
