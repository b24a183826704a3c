import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import type { ChangeSummary } from '../../../../contract/ops-changes';
import { IDENTICAL_TO_SERVED } from '../../../../contract/ops-flow';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { useRecheck } from '../api/change-flow';
import { ChangeStatusChip } from './change-status';

/** Why a failed change failed, in the interface language when it is the desk's own refusal of an identical file. */
export function useFailureText(change: Pick<ChangeSummary, 'failure'>): string {
  const { t } = useTranslation();
  if (change.failure === IDENTICAL_TO_SERVED) return t('ops.flow.identical');
  return t('ops.change.failed', { message: change.failure ?? '' });
}

/**
 * "Compare again": a stale change diffed against what is served now (a maker or checker). The change comes back
 * validating, then staged with its new difference (or refused: identical to what is served).
 */
export function RecheckButton({
  change,
  roles,
  size = 'medium',
}: {
  change: ChangeSummary;
  /** The signed-in user's roles: a maker or checker compares again. */
  roles: readonly OpsRole[];
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation();
  const recheck = useRecheck();
  if (change.status !== 'stale' || !roles.some((role) => role === 'maker' || role === 'checker')) return null;
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Button
        size={size}
        variant="outlined"
        loading={recheck.isPending}
        loadingPosition="start"
        aria-label={`${t('ops.flow.compareAgain')}: ${change.fileName}`}
        onClick={() => recheck.mutate({ id: change.id })}
      >
        {recheck.isPending ? t('ops.flow.comparingAgain') : t('ops.flow.compareAgain')}
      </Button>
      {recheck.error && <ProblemAlert error={recheck.error} />}
    </Stack>
  );
}

/** The inbox's status cell: the status, "re-check" with "compare again" for a stale change, a refusal's reason. */
export function ChangeStatusCell({ change, roles }: { change: ChangeSummary; roles: readonly OpsRole[] }) {
  const { t } = useTranslation();
  const failure = useFailureText(change);
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <ChangeStatusChip status={change.status} />
      {change.status === 'stale' && (
        <Typography variant="caption" component="div" data-testid="recheck-mark" title={t('ops.flow.recheckTitle')}>
          {t('ops.flow.recheckMark')}
        </Typography>
      )}
      <RecheckButton change={change} roles={roles} size="small" />
      {change.status === 'failed' && change.failure && (
        <Typography variant="caption" component="div" color="error" data-testid="failure" sx={{ maxWidth: 320 }}>
          {failure}
        </Typography>
      )}
    </Stack>
  );
}

/** On a change's page: why it is out of date, and the way to compare it again. */
export function StaleNotice({ change, roles }: { change: ChangeSummary; roles: readonly OpsRole[] }) {
  const { t } = useTranslation();
  if (change.status !== 'stale') return null;
  return (
    <Alert
      severity="warning"
      role="status"
      data-testid="stale-notice"
      action={<RecheckButton change={change} roles={roles} size="small" />}
    >
      <strong>{t('ops.flow.recheckMark')}</strong> — {t('ops.flow.recheckTitle')} {t('ops.decision.stale')}
    </Alert>
  );
}
