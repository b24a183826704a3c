import { useState } from 'react';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import type { ChangeDetail } from '../../../../contract/ops-changes';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { formatTime } from '../../../components/ui/ops-format';
import { formatNumber } from '../../../lib/i18n';
import { useChange } from '../api/get-change';
import { ChangeDecision } from './change-decision';
import { ChangeComments } from './change-comments';
import { StaleNotice, useFailureText } from './change-flow-status';
import { OverlappingChanges } from './overlapping-changes';
import { ChangeStatusChip, StagedLine } from './change-status';
import { DiffViewer } from './diff-viewer';
import { ValidationReport } from './validation-report';
import { ChangeFindings } from './change-findings';
import { useChangeQuality } from '../api/get-change-quality';

/** One change: who staged what and when, validation progress, then its report, its difference and the decision. */
export function ChangeScreen({ id, user }: { id: string; user: { name: string; roles: OpsRole[] } }) {
  const query = useChange(id);
  const change = query.data;
  if (!change) return <OpsQueryState query={query} />;
  return (
    <Stack spacing={2}>
      <ChangeHeader change={change} />
      {change.status === 'validating' && <ValidationProgress change={change} />}
      {change.status === 'failed' && <FailedNotice change={change} />}
      <StaleNotice change={change} roles={user.roles} />
      {change.status !== 'validating' && <ChangeTabs change={change} />}
      {change.status !== 'validating' && <ChangeFindings changeId={change.id} />}
      {change.status !== 'validating' && <ChangeDecision change={change} user={user} />}
      {(change.status === 'staged' || change.status === 'stale') && <OverlappingChanges changeId={change.id} />}
      <ChangeComments changeId={change.id} user={user} />
    </Stack>
  );
}

function FailedNotice({ change }: { change: ChangeDetail }) {
  return (
    <Alert severity="error" role="alert" data-testid="failure">
      {useFailureText(change)}
    </Alert>
  );
}

function ChangeHeader({ change }: { change: ChangeDetail }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography component="p" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
          {change.fileName}
        </Typography>
        <ChangeStatusChip status={change.status} />
      </Stack>
      <StagedLine change={change} />
      {change.rollbackOf !== null && (
        <Typography variant="body2">{t('ops.change.rollbackOf', { version: change.rollbackOf })}</Typography>
      )}
      {change.decidedBy && (
        <Typography variant="body2" data-testid="decided">
          {t('ops.change.decided', { by: change.decidedBy, at: formatTime(change.decidedAt) })}
          {change.comment ? ` — “${change.comment}”` : ''}
        </Typography>
      )}
    </Stack>
  );
}

/** The second progress bar: reading, validation, comparison with the served data, polled from the change. */
function ValidationProgress({ change }: { change: ChangeDetail }) {
  const { t } = useTranslation();
  const progress = change.progress;
  const percent =
    progress && progress.total > 0 ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : null;
  return (
    <div>
      <Typography id="validation-progress-label" variant="body2">
        {t('ops.change.validating', {
          phase: t(`ops.phases.${progress?.phase ?? 'reading'}`),
          done: formatNumber(progress?.done ?? 0),
        })}
      </Typography>
      <LinearProgress
        variant={percent === null ? 'indeterminate' : 'determinate'}
        value={percent ?? undefined}
        aria-labelledby="validation-progress-label"
        data-testid="validation-progress"
      />
    </div>
  );
}

function ChangeTabs({ change }: { change: ChangeDetail }) {
  const { t } = useTranslation();
  // A change with problems opens on its report; a clean one on what it would change.
  const [tab, setTab] = useState<'report' | 'diff'>(change.problemCount > 0 || !change.diff ? 'report' : 'diff');
  // No row problems is not "clean" when the change would add quality findings.
  const findings = useChangeQuality(change.id).data?.total ?? 0;
  return (
    <>
      <Tabs value={tab} onChange={(_, value: 'report' | 'diff') => setTab(value)} aria-label={t('ops.change.views')}>
        <Tab
          value="report"
          id="tab-report"
          aria-controls="panel-report"
          label={
            change.problemCount === 0 && findings > 0
              ? t('ops.changeQuality.tab', { count: findings })
              : t('ops.change.reportTab', { count: change.problemCount })
          }
        />
        <Tab
          value="diff"
          id="tab-diff"
          aria-controls="panel-diff"
          label={t('ops.change.diffTab')}
          disabled={!change.diff}
        />
      </Tabs>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'report' ? <ValidationReport change={change} /> : <DiffViewer change={change} />}
      </div>
    </>
  );
}
