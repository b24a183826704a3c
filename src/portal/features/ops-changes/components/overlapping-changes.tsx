import { Link as RouterLink } from 'wouter';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { OpsSection } from '../../../components/ui/ops-section';
import { useOverlapping } from '../api/change-flow';
import { StagedLine } from './change-status';

/** The other pending changes of the same kind and countries: publishing one makes the others out of date. */
export function OverlappingChanges({ changeId }: { changeId: string }) {
  const { t } = useTranslation();
  const query = useOverlapping(changeId);
  const others = query.data?.data ?? [];
  if (!query.data) return null;
  return (
    <OpsSection id="overlap-title" title={t('ops.flow.overlapTitle')} spacing={1} outlined testId="overlapping">
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
                  <StagedLine change={other} />
                </Stack>
              </li>
            ))}
          </Stack>
        </>
      )}
    </OpsSection>
  );
}
