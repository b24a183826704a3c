import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ChangeStatus, ChangeSummary } from '../../../../contract/ops-changes';
import { formatTime } from '../../../components/ui/ops-format';

const COLOURS: Record<ChangeStatus, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  validating: 'info',
  staged: 'warning',
  stale: 'warning',
  approved: 'info',
  published: 'success',
  rejected: 'error',
  discarded: 'default',
  expired: 'default',
  failed: 'error',
};

export function ChangeStatusChip({ status }: { status: ChangeStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLOURS[status]} label={t(`ops.status.${status}`)} data-testid="change-status" />;
}

/** What a change holds and who staged it when: its kind, its countries, by whom and at what time. */
export function StagedLine({
  change,
}: {
  change: Pick<ChangeSummary, 'kind' | 'countries' | 'stagedBy' | 'stagedAt'>;
}) {
  const { t } = useTranslation();
  return (
    <Typography variant="body2" color="text.secondary">
      {t('ops.change.staged', {
        kind: t(`ops.kinds.${change.kind}`),
        countries: change.countries.join(', ') || '—',
        by: change.stagedBy,
        at: formatTime(change.stagedAt),
      })}
    </Typography>
  );
}
