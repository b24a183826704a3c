import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { KIND_OF_RECORD, type QualityFinding } from '../../../../contract/ops-quality';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSection } from '../../../components/ui/ops-section';
import { formatNumber, i18n } from '../../../lib/i18n';
import { useChangeQuality } from '../api/get-change-quality';
import { RecordLink } from '../../../components/ui/record-link';

const checkTitle = (check: string) => {
  const key = `ops.quality.checks.${check}`;
  return i18n.exists(key) ? String(i18n.t(key as never)) : check;
};

/**
 * The quality findings a change would add to what is served (the checks run on its staged result), on the change
 * page before the decision: each check with its count and first findings, each finding linked to its record.
 */
export function ChangeFindings({ changeId }: { changeId: string }) {
  const { t } = useTranslation();
  const query = useChangeQuality(changeId);
  const quality = query.data;
  if (!quality) return <OpsQueryState query={query} />;
  if (!quality.computed) return null;
  return (
    <OpsSection id="change-findings-title" title={t('ops.changeQuality.title')} spacing={1.5} outlined>
      {quality.total === 0 ? (
        <Typography role="status" color="success.dark" data-testid="change-findings-count">
          {t('ops.changeQuality.none')}
        </Typography>
      ) : (
        <Alert severity="warning" data-testid="change-findings-count">
          {t('ops.changeQuality.count', { count: quality.total, formatted: formatNumber(quality.total) })}
        </Alert>
      )}
      {quality.checks.map((check) => (
        <Stack key={check.check} spacing={0.5} component="section" aria-labelledby={`new-${check.check}`}>
          <Typography id={`new-${check.check}`} component="h3" variant="subtitle1" sx={{ fontWeight: 500 }}>
            {checkTitle(check.check)} ({formatNumber(check.count)})
          </Typography>
          <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2.5 }}>
            {check.examples.map((finding, index) => (
              <Finding key={index} finding={finding} />
            ))}
          </Stack>
        </Stack>
      ))}
    </OpsSection>
  );
}

function Finding({ finding }: { finding: QualityFinding }) {
  const { t } = useTranslation();
  const kind = KIND_OF_RECORD[finding.record];
  const what = [finding.code, finding.name].filter(Boolean).join(' — ');
  return (
    <Typography component="li" variant="body2" data-testid="new-finding" sx={{ overflowWrap: 'anywhere' }}>
      {kind && finding.recordKey ? (
        <RecordLink
          kind={kind}
          recordKey={finding.recordKey}
          text={what}
          label={t('ops.changeQuality.open', { record: what })}
        />
      ) : (
        what
      )}
      {`: ${finding.detail}`}
    </Typography>
  );
}
